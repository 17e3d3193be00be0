terraform {
  required_version = ">= 1.0"
  required_providers {
    aws = {
      source                = "hashicorp/aws"
      version               = "~> 5.0, != 5.1.0"
      configuration_aliases = [aws.east]
    }
    legacy = ">= 2.0"
  }
}
provider "random" {
  version = "~> 3.5"
}
module "m" {
  source = "./m"
}
resource "null_resource" "x" {
  provider = aws.east
}
import {
  to = tls_private_key.k
  id = "x"
}
check "c" {
  data "http" "h" {}
}
