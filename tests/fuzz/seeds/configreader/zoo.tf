variable "names" {
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
