# fragment: src/core/cuda.mk
