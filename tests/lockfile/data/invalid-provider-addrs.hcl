# Provider labels. A line marked with an ERROR comment must report exactly that
# summary (the convention of tofu's locks-files fixtures).

provider "" { # ERROR: Invalid provider source address
}

provider "hashicorp/null" { # ERROR: Non-normalized provider source address
}

provider "null" { # ERROR: Non-normalized provider source address
}

provider "example.com/a/b/c" { # ERROR: Invalid provider source address
}

provider "Example.com/acme/widget" { # ERROR: Non-normalized provider source address
}

provider "example.com/Acme/widget" { # ERROR: Non-normalized provider source address
}

provider "example.com/acme/Widget" { # ERROR: Non-normalized provider source address
}

provider "example.com:443/acme/widget" { # ERROR: Non-normalized provider source address
}

provider "example.com/acme_corp/widget" { # ERROR: Invalid provider source address
}

provider "example.com/acme/terraform-provider-widget" { # ERROR: Invalid provider source address
}

provider "single/label/host" {
  version = "1.0.0"
}

provider "single/label/host" { # ERROR: Duplicate provider lock
  version = "2.0.0"
}

# Legacy and built-in providers are never lockable.
provider "registry.terraform.io/-/null" { # ERROR: Invalid provider source address
}

provider "terraform.io/builtin/terraform" { # ERROR: Invalid provider source address
}
