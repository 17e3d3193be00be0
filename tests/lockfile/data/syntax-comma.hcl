provider "example.com/test/two" {
  version = "1.0.0", # ERROR: Unexpected comma after argument
}
