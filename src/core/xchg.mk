# fragment: src/core/xchg.mk
