# A hand edit that merged "hashes = [" with the first hash (as in a real pull request).
provider "example.com/test/mangled" {
  version = "1.0.0"
  ha    "h1:cn19NQndVIksT44BCnFHnNak7f8EURsZmT5BNeDC5YE=", # ERROR: Invalid block definition | Unsupported block type
    "zh:0000000000000000000000000000000000000000000000000000000000000000",
  ]
}
