#pragma once
// The configurations of tst_interop_lockinit (kept out of the test's .cpp: moc does not read
// raw string literals reliably).

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>

namespace provender::test {

using ConfigFiles = QMap<QString, QByteArray>;

struct LockInitCase
{
    QString name;
    ConfigFiles files;
    QStringList platforms;
    bool unpacked = false;
    bool expectFailure = false;
};

/// Collects rows written as `add(name, ...) << files << platforms << unpacked << expectFailure`.
class LockInitCases
{
public:
    struct Row
    {
        LockInitCase *c;
        int field = 0;
        Row &operator<<(const ConfigFiles &f)
        {
            c->files = f;
            return *this;
        }
        Row &operator<<(const QStringList &p)
        {
            c->platforms = p;
            return *this;
        }
        Row &operator<<(bool b)
        {
            (field++ == 0 ? c->unpacked : c->expectFailure) = b;
            return *this;
        }
    };
    template<typename... A> Row add(const char *format, A... args)
    {
        m_cases.append(LockInitCase{QString::asprintf(format, args...), {}, {}});
        return Row{&m_cases.last()};
    }
    QList<LockInitCase> m_cases;
};

inline const QByteArray kSyntaxZoo = R"(variable "names" {
  type    = list(string)
  default = ["a", "b"]
}

locals {
  upper   = [for n in var.names : upper(n) if n != "x"]
  by_name = { for i, n in var.names : n => i... }
  splat   = aws_thing.x[*].id
  legacy  = aws_thing.x.*.id
  text    = <<-EOT
    required_providers { fake = "1.0" }
    ${var.names[0]} %{ if true }yes%{ else }no%{ endif }
    }}} ]]] )))
  EOT
  plain   = <<EOT
"quoted" { not a block
EOT
  tmpl    = "a ${join(",", [for s in var.names : "${s}-}"])} b %{for x in var.names}${x}%{endfor}"
  escape  = "$${literal} %%{literal} \" \\ \u00e9"
  math    = (1 + 2) * 3 / 4 % 5 - -1 > 0 && !false || null == null
  cond    = length(var.names) > 1 ? { a = 1, b = [1, 2, { c = 3 }] } : { a = 2, b = [] }
  nested  = try(merge({ x = 1 }, { "y" = 2, (var.names[0]) = 3 }), {})
  index   = var.names[0][0]
  ns_fn   = provider::terraform::encode_tfvars({ a = 1 })
  commented = 1 /* block } comment */ + 2 # line { comment
  # required_providers { fake = { source = "example.test/ns/fake" } }
  // terraform { }
}

resource "null_resource" "zoo" {
  triggers = {
    a = "b"
    "c" = local.text
  }
  dynamic "thing" {
    for_each = var.names
    content {
      name = thing.value
    }
  }
  lifecycle { ignore_changes = [triggers] }
}

output "o" { value = local.upper }
)";

inline QList<LockInitCase> lockInitCases()
{
    using namespace Qt::StringLiterals;
    LockInitCases rows;
    const auto add = [&rows](auto... a) { return rows.add(a...); };
    using Files = ConfigFiles;
    const QStringList linuxOnly{u"linux_amd64"_s};
    const QStringList both{u"linux_amd64"_s, u"darwin_arm64"_s};

    const QByteArray several = R"(terraform {
  required_providers {
    alpha = {
      source  = "example.test/ns/alpha"
      version = "~> 1.2"
    }
    beta = { source = "example.test/ns/beta", version = ">= 1.0, < 1.5" }
    gamma = {
      source = "example.test/other/gamma"
    }
  }
}

resource "null_resource" "x" {}
data "terraform_remote_state" "s" {
  backend = "local"
}
)";
    for (bool unpacked : {false, true}) {
        const char *layout = unpacked ? "unpacked" : "packed";
        add("several providers, one platform, %s", layout) << Files{{u"main.tf"_s, several}} << linuxOnly << unpacked << false;
        add("several providers, two platforms, %s", layout) << Files{{u"main.tf"_s, several}} << both << unpacked << false;
        add("root and module constraints, %s", layout) << Files{{u"main.tf"_s, R"(terraform {
  required_providers {
    alpha = { source = "example.test/ns/alpha", version = ">= 1.0.0" }
  }
}
module "a" {
  source = "./modules/a"
}
)"},
                                                                {u"modules/a/main.tf"_s, R"(terraform {
  required_providers {
    a = { source = "example.test/ns/alpha", version = "!= 1.2.5, < 2.0.0" }
    random = { source = "hashicorp/random", version = "3.5.0" }
  }
}
module "b" {
  source = "../b"
}
resource "a_thing" "t" {}
)"},
                                                                {u"modules/b/main.tf"_s, R"(terraform {
  required_providers {
    beta = {
      source  = "example.test/ns/beta"
      version = "~> 1.0.0"
    }
  }
}
resource "random_id" "r" {}
)"}} << both << unpacked << false;
    }
    add("exact and != constraints") << Files{{u"main.tf"_s, R"(terraform {
  required_providers {
    alpha = { source = "example.test/ns/alpha", version = "= 1.2.0" }
    beta  = { source = "example.test/ns/beta", version = "!= 1.5.0" }
    null  = { version = "3.1.0" }
  }
}
)"}} << linuxOnly << false << false;
    add("prerelease named exactly") << Files{{u"main.tf"_s, R"(terraform {
  required_providers {
    gamma = { source = "example.test/other/gamma", version = "2.0.0-rc1" }
    alpha = { source = "example.test/ns/alpha", version = ">= 1.2.5" }
  }
}
)"}} << both << false << false;
    add("prerelease excluded by ranges") << Files{{u"main.tf"_s, R"(terraform {
  required_providers {
    alpha = { source = "example.test/ns/alpha", version = "> 1.2.5, < 2.0.0" }
    gamma = { source = "example.test/other/gamma", version = ">= 0.1.0" }
  }
}
)"}} << linuxOnly << false << true; // alpha: only 1.3.0-beta1 is in range, and a prerelease needs an exact constraint
    add("legacy forms") << Files{{u"main.tf"_s, R"(terraform {
  required_providers {
    null = "~> 3.1.0"
  }
}
provider "random" {
  version = ">= 3.0, < 3.6"
}
provider "null" {
  alias   = "two"
  version = "!= 3.1.1"
}
)"}} << linuxOnly << true
                        << false;
    add("override file") << Files{{u"main.tf"_s, R"(terraform {
  required_providers {
    alpha = { source = "example.test/ns/alpha", version = "~> 1.0.0" }
    beta  = { source = "example.test/ns/beta", version = "1.0.0" }
  }
}
)"},
                                  {u"main_override.tf"_s, R"(terraform {
  required_providers {
    alpha = { source = "example.test/ns/alpha", version = ">= 1.2.0, < 2.0.0" }
  }
}
)"}} << linuxOnly << false
                         << false;
    add("tf.json files") << Files{{u"main.tf.json"_s, R"({
  "//": "a comment",
  "terraform": {
    "required_providers": {
      "alpha": { "source": "example.test/ns/alpha", "version": "~> 1.2.0" },
      "gamma": { "source": "example.test/other/gamma", "version": "2.0.0-rc2" }
    }
  },
  "module": { "m": { "source": "./m" } },
  "resource": { "null_resource": { "x": {} } }
})"},
                                  {u"m/main.tf.json"_s, R"({
  "terraform": [{ "required_providers": [{ "alpha": { "source": "example.test/ns/alpha", "version": "!= 1.2.5" } }] }],
  "provider": { "random": [{ "version": "~> 3.5.0" }] }
})"}} << both << false << false;
    add("syntax to skip") << Files{{u"zoo.tf"_s, kSyntaxZoo}, {u"versions.tf"_s, R"(terraform {
  required_version = ">= 1.0"
  required_providers {
    beta = {
      source                = "example.test/ns/beta"
      version               = "~> 1.1"
      configuration_aliases = [beta.one, beta.two]
    }
  }
}
resource "aws_thing" "x" {
  provider = beta.one
  count    = 2
}
)"}} << linuxOnly << false << false;
    add("no providers") << Files{{u"main.tf"_s, "locals {\n  a = 1\n}\n"}} << linuxOnly << false << false;
    add("no version satisfies")
        << Files{{u"main.tf"_s,
                  "terraform {\n  required_providers {\n    beta = { source = \"example.test/ns/beta\", version = \"> 2.0\" }\n  }\n}\n"}}
        << linuxOnly << false << true;
    return rows.m_cases;
}

} // namespace provender::test

namespace provender::test {

/// Broken configurations: terraform init's diagnostics for them are the reader's.
inline QList<std::pair<const char *, QByteArray>> brokenConfigs()
{
    return {
        {"bad constraint operator", R"(terraform {
  required_providers {
    alpha = { source = "example.test/ns/alpha", version = "=> 1.0" }
  }
}
)"},
        {"required_providers values", R"(terraform {
  required_providers {
    alpha = { source = "example.test/ns/alpha", version = 1 }
    beta = { source = "not a source!" }
    Gamma = { source = "example.test/ns/gamma" }
    delta = { source = "example.test/ns/delta", foo = 1 }
    b = { source = "example.test/ns/b", version = "" }
    c = var.x
    d = { source = "example.test/ns/d", configuration_aliases = [e.x] }
    f = "=> 1"
  }
}
provider "h" {
  version = "~> x"
}
)"},
        {"two required_providers blocks", R"(terraform {
  required_providers {
    alpha = { source = "example.test/ns/alpha" }
  }
}
terraform {
  required_providers {
    beta = { source = "example.test/ns/beta" }
  }
}
provider "alpha" {
  version = ">= 1.0"
}
module "m" {
  version = "1"
}
)"},
        {"unclosed tuple", "locals {\n  x = [1, 2\n}\n"},
        {"unclosed parenthesis", "resource \"x\" \"y\" {\n  a = (1 + 2\n}\n"},
        {"two arguments on a line", "resource \"a\" \"b\" {\n  x = 1 y = 2\n}\nresource \"a\" \"c\" {\n"},
        {"multi-line string", "locals {\n  a = \"unterminated\n  b = 'single'\n}\n"},
        {"operators", "locals {\n  a = 1 +\n  b = [for x in y x]\n  c = { a = 1 b = 2 }\n}\n"},
        {"object separator and block equals", "locals {\n  c = { a = 1 b = 2 }\n}\nresource \"a\" \"b\" \"c\" \"d\" = {}\n"},
        {"interpolation", "locals {\n  t = \"${a b}\"\n}\n"},
        {"call arguments", "locals {\n  d = f(1 2)\n}\n"},
        {"attribute after dot", "locals {\n  d = [for x in y : x]\n  e = a.\n}\n"},
        {"body items", R"(locals {
  a = 1
  a = 2
  b = 1, c = 2
}
resource "x" "y" { a = 1, b = 2 }
resource "x" "z" { a = 1
}
resource "x" "w" { n "l" {} }
)"},
        {"escapes and bitwise", "locals {\n  a = 1 ~ 2\n  b = \"\\q\"\n  c = \"\\u12\"\n}\nresource \"x\" \"y\" \"z\"\n"},
        {"invalid characters", "locals {\n  a = `x`\n  b = 1;\n}\n"},
        {"stray brace", "}\nlocals {\n  a = 1\n}\n"},
        {"quoted argument name", "locals {\n  \"a\" = 1\n}\n"},
        {"label template", "resource \"${x}\" \"y\" {\n}\n"},
        {"heredoc unterminated", "locals {\n  a = <<EOT\nno end\n"},
        {"template directive", "locals {\n  a = \"%{ nope }\"\n  b = \"%{ if true }x%{ endif }\"\n}\n"},
        {"for without colon", "locals {\n  a = { for k, v in m k => v }\n  b = [for x in y: x if]\n}\n"},
    };
}

} // namespace provender::test
