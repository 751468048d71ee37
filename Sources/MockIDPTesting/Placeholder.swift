// MockIDPTesting
