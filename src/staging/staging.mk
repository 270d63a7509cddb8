# src/staging: the staged path's one owner: copiers (copy engine, gdrcopy, GPU kernel, memcpy),
# the per-size plan, the copy-rate probe and the staged posting loop.
libgdrcore_a_SOURCES += src/staging/copier.h
