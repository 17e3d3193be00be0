#pragma once
// The one reader of the tofu/terraform CLI configuration file's syntax (~/.tofurc,
// ~/.terraformrc, TF_CLI_CONFIG_FILE): HCL 1, or its JSON form. tofu and terraform read this file
// with hashicorp/hcl v1 (`hcl.Parse`, then `hcl.DecodeObject`); this reader follows that library:
//  - the text is JSON when its first non-space character is `{` (hcl v1's lexMode), whatever the
//    file is called; nested JSON objects are flattened into multi-label items as hcl v1 does;
//  - otherwise hcl v1's scanner rules: identifiers of letters, digits, `_`, `-` and `.`
//    (Unicode letters too), "strings" with Go escapes and `${ … }` kept as written, heredocs
//    (`<<EOF`, `<<-EOF`), numbers, `true`/`false`, `#`, `//` and `/* */` comments; and its
//    parser's: `key … { }` blocks, `key = value`, lists, objects, optional commas between items;
//  - a text hcl v1 rejects is rejected here, with the line and column, and nothing in it is used
//    (tofu and terraform ignore the whole file then: `loadConfigFile` returns an empty Config).
// Which blocks mean what is the callers' business (model/network/Credentials.cpp: `credentials`
// and `host`; model/oci/OciAuth.cpp: `oci_credentials`, `oci_default_credentials`).
// tests/interop/tst_interop_cliconfig.cpp holds this reader's verdicts against terraform's.

#include "model/core/Result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>

namespace provender::cliconfig {

struct Value;

/// One `keys… = value` or `keys… { … }` item of a body.
struct Item
{
    QStringList keys;    ///< `credentials "example.com" {` -> {"credentials", "example.com"}
    bool assign = false; ///< written with `=`
    int line = 0;        ///< 1-based line of the first key (0 in the JSON form)
    int column = 0;      ///< 1-based column of the first key, as hcl v1 counts (0 in the JSON form)
    /// The first key's token as written, quotes and escapes included ("" in the JSON form): what
    /// the duplicate-argument check of tofu 1.12's hcl v1 compares (CliConfigDecode.h).
    QByteArray keyToken;
    std::shared_ptr<const Value> value;
};

struct Value
{
    enum class Type { String, Number, Bool, Null, List, Object };
    Type type = Type::String;
    QString text; ///< String: the unquoted text; Number: the literal as written
    bool boolean = false;
    QList<Value> list;
    QList<Item> object; ///< in document order
    int line = 0;
    bool fraction = false; ///< Number: hcl v1's FLOAT token (a '.' or an exponent), not its NUMBER
    bool heredoc = false;  ///< String: written as a heredoc (`<<EOT`), hcl v1's HEREDOC token

    bool isObject() const { return type == Type::Object; }
    bool isString() const { return type == Type::String; }
};

/// The top-level items of a CLI config text. The error names the line and column as hcl v1 does
/// ("line 3, column 9: literal not terminated").
Result<QList<Item>> parse(const QByteArray &text);

/// One entry of a map-valued setting as hcl v1's decoder sees it: `name "key" { … }`,
/// `name { key { … } }` and `name = { key = { … } }` all give the entry `key`. Labels after the
/// key become nested objects.
struct Entry
{
    QString key;
    Value value;
    int line = 0;
};
/// Every entry of the top-level setting `name`, in the order hcl v1's decoder takes them (a key
/// may come more than once; the decoder merges them, later attributes winning: see
/// attributeValues()). As its decodeStruct does for a field, the name matches in any case
/// (`CREDENTIALS "h" { … }` is a credentials block: ObjectList.Filter compares with
/// strings.EqualFold), and the labelled blocks (`name "key" { … }`) come first, in document order,
/// then the entries of each `name { … }` / `name = { … }`: terraform 1.11 sends the token of a
/// `credentials = { … }` written before a `credentials "HOST"` block for the same host.
QList<Entry> mapEntries(const QList<Item> &items, QLatin1StringView name);

/// Every value `name = …` (or `name { … }`) sets among `bodies`' items, in document order: what
/// hcl v1's decoder merges into one map entry when it decodes the bodies one after the other.
/// Qt::CaseInsensitive where the decoder fills a struct field (a host's `services`), not a map
/// key (a credentials block's `token`).
QList<const Value *> attributeValues(const QList<const Value *> &bodies, QLatin1StringView name,
                                     Qt::CaseSensitivity cs = Qt::CaseSensitive);

} // namespace provender::cliconfig
