provider "example.com/test/empty-list" {
  version = "1.0.0"
  hashes = [] # ERROR: Invalid provider hash set
}

provider "example.com/test/not-a-list" {
  version = "1.0.0"
  hashes = "h1:abc" # ERROR: Invalid expression
}

provider "example.com/test/no-scheme" {
  version = "1.0.0"
  hashes = [ # ERROR: Invalid provider hash string
    "abc",
  ]
}

provider "example.com/test/empty-scheme" {
  version = "1.0.0"
  hashes = [":abc"] # ERROR: Invalid provider hash string
}

provider "example.com/test/variable" {
  version = "1.0.0"
  hashes = [
    var.hash, # ERROR: Variables not allowed | Unsuitable value type
  ]
}
