provider "example.com/test/one" { # ERROR: Missing required argument
  "version" = "1.0.0" # ERROR: Invalid argument name
}
