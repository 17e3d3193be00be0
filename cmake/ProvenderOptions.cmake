# One INTERFACE target carries the language standard, warnings and Qt strictness for every
# target of the project (the idea of qBittorrent's CommonConfig, written for this project).
add_library(provender_options INTERFACE)
target_compile_features(provender_options INTERFACE cxx_std_20)
set(CMAKE_CXX_EXTENSIONS OFF)
target_compile_options(provender_options INTERFACE
    -Wall -Wextra -pedantic -Wnon-virtual-dtor -Woverloaded-virtual -Wcast-qual
    $<$<BOOL:${PROVENDER_WERROR}>:-Werror>)
target_compile_definitions(provender_options INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CAST_FROM_BYTEARRAY
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_NO_URL_CAST_FROM_STRING
    QT_USE_QSTRINGBUILDER
    QT_NO_FOREACH
    QT_NO_KEYWORDS
    QT_DISABLE_DEPRECATED_UP_TO=0x060400
    PROVENDER_VERSION="${PROJECT_VERSION}")
target_include_directories(provender_options INTERFACE ${PROJECT_SOURCE_DIR})

option(PROVENDER_WERROR "Treat warnings as errors" OFF)

# Helper: a static library that is one concept of model/ (core, hashing, ...).
function(provender_add_model_library name)
    add_library(${name} STATIC ${ARGN})
    target_link_libraries(${name} PUBLIC provender_options Qt6::Core)
endfunction()

# Helper: every subfolder of the calling folder that has a CMakeLists.txt, added in name order (the
# part folders of ui/ and tests/: a new part is a new folder, with no list to edit).
function(provender_add_part_folders)
    file(GLOB parts LIST_DIRECTORIES true RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/*)
    list(SORT parts)
    foreach(part IN LISTS parts)
        if(IS_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${part} AND EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${part}/CMakeLists.txt)
            add_subdirectory(${part})
        endif()
    endforeach()
endfunction()
