// Comments of every style are accepted; so are odd spacing and any attribute order.
/* a block
   comment */
provider "example.com/test/version-only" {
  version = "1.0.0"
}

provider "example.com/test/version-and-constraints" {
  constraints = "~> 1.2"
  version = "1.2.0" # trailing comment
}

provider "example.com/test/all-the-things" {
  hashes = [
    "test:placeholder-hash-3",
    "test:placeholder-hash-1", "test:placeholder-hash-2",
    "test:placeholder-hash-1"
  ]

  version     =    "3.0.10"
  constraints = ">= 3.0.2"
}
