// MockIDPCore
