doodad "thing" { # ERROR: Unsupported block type
}

providers "example.com/a/b" { # ERROR: Unsupported block type
}

colour = "blue" # ERROR: Unsupported argument

provider "example.com/test/extra" {
  version = "1.0.0"
  hash    = "h1:abc" # ERROR: Unsupported argument
  nested { # ERROR: Unsupported block type
  }
}

provider "example.com/test/twice" {
  version = "1.0.0"
  version = "1.0.0" # ERROR: Attribute redefined
}

provider "example.com/a/b" "c" { # ERROR: Extraneous label for provider
}

provider { # ERROR: Missing source_addr for provider
}

module "first" { # WARNING: Dependency locks for modules are not yet supported
}

module "second" {
}
