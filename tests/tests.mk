# fragment: tests/tests.mk
