# io tests
