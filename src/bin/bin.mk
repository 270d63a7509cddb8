# fragment: src/bin/bin.mk
