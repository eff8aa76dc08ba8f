# dynamics tests
