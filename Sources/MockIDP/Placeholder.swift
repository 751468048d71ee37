// MockIDP
