#pragma once
// The second step of reading a CLI configuration: tofu and terraform parse the file with
// hashicorp/hcl v1 (model/network/CliConfigSyntax.h), then `hcl.DecodeObject` it into their
// `Config` struct, and when that fails they use nothing from the file ("Error parsing FILE: …";
// terraform v1.11.4 internal/command/cliconfig/cliconfig.go:171, tofu's :220). This checks the
// fields of that struct (cliconfig.go:37-82; tofu's :41-99) the way hcl v1's decoder.go decodes
// them (v1.0.0: decodeBool :117, decodeInt :157, decodeInterface :194, decodeMap :300,
// decodeSlice :413, decodeString :522, decodeStruct :541):
//  - both: plugin_cache_dir (a string: a string, heredoc or integer token),
//    plugin_cache_may_break_dependency_lock_file (true or false), host (objects; `services` an
//    object of any values), credentials (objects of any values; a later value of an attribute must
//    fit the Go type its first value gave it) and credentials_helper (objects; `args` a list of
//    strings);
//  - terraform only: providers, provisioners (objects of strings), disable_checkpoint,
//    disable_checkpoint_signature (true or false) — tofu's Config has none of them;
//  - tofu only (1.12 and later, hcl v1.0.1-vault-7 decoder.go:424): the blocks of a host decode
//    into one ConfigHost, so their `services` values must agree in type across them;
//  - tofu only, before decoding (1.12 and later: `hcl.Parse` of v1.0.1-vault-7 errors on duplicate
//    keys, hcl/parser/parser.go:110-121): an argument (`key = value`) set twice in one body — the
//    top level, a block, an object value — fails the parse ("The argument "token" at 3:3 was
//    already set. …"). The keys compare as written (`token` and `"token"` differ); blocks may
//    repeat, and the JSON form is not checked.
// Setting names match in any case, as the decoder's ObjectList.Filter does (ast.go:66). What
// passes the decoder but makes both crash while they load the file is reported too
// (`unconvertible`). Not checked: the untagged fields the decoder also fills from settings named
// like them (`providerinstallation`; tofu's `registryprotocols`, `ocidefaultcredentials`,
// `ocirepositorycredentials`). tests/interop/tst_interop_cliconfig.cpp compares the terraform
// half with the running terraform.

#include "model/network/CliConfigSyntax.h"

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace provender::cliconfig {

struct DecodeProblem
{
    int line = 0;       ///< 1-based; 0 when unknown
    QString message;    ///< "plugin_cache_dir is a list, not a string"
    bool parse = false; ///< hcl v1's parser refuses the text (not its decoder)
};

struct DecodeVerdict
{
    std::optional<DecodeProblem> terraform; ///< why terraform 1.11 would use nothing in the file
    std::optional<DecodeProblem> tofu;      ///< why tofu would use nothing in the file
    /// credentials entries whose values hold an object (`x = { … }`, a block, or more labels):
    /// both build their credentials source from every entry whose host name is valid
    /// (svchost.ForComparison) and panic on these ("hcl2shim: can't convert
    /// []map[string]interface {}"); entries with an invalid host name are skipped.
    QList<std::pair<QString, DecodeProblem>> unconvertible;
};

/// The verdicts of tofu's and terraform's decoders on a parsed CLI config.
DecodeVerdict decodeProblems(const QList<Item> &items);

} // namespace provender::cliconfig
