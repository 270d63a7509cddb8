# fragment: src/core/opts.mk
