let embedded = PackageResources.default_yaml
