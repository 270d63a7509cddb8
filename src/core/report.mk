# fragment: src/core/report.mk
