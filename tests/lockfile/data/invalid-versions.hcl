provider "example.com/test/empty" {
  version = "" # ERROR: Invalid provider version number
}

provider "example.com/test/v-prefix" {
  version = "v1.0.0" # ERROR: Invalid provider version number
}

provider "example.com/test/two-parts" {
  version = "1.0" # ERROR: Invalid provider version number
}

provider "example.com/test/one-part" {
  version = "1" # ERROR: Invalid provider version number
}

provider "example.com/test/leading-zero" {
  version = "1.02.0" # ERROR: Invalid provider version number
}

provider "example.com/test/missing" { # ERROR: Missing required argument
}

provider "example.com/test/null" {
  version = null # ERROR: Missing required argument
}

provider "example.com/test/number" {
  version = 1 # ERROR: Invalid provider version number
}

provider "example.com/test/constraints" {
  version     = "1.0.0"
  constraints = ">=1.0" # ERROR: Invalid provider version constraints
}

provider "example.com/test/bad-constraints" {
  version     = "1.0.0"
  constraints = "=> 1.0" # ERROR: Invalid provider version constraints
}
