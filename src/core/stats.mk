# fragment: src/core/stats.mk
