# src/staging: the staged path's one owner: copiers (copy engine, gdrcopy, GPU kernel, memcpy),
# the per-size plan, the copy-rate probe and the staged posting loop.
libgdrcore_a_SOURCES += src/staging/copier.h
# gdrcopy: the CPU through a BAR1 mapping (libgdrapi.so.2 loaded at run time by src/memory/gdrapi.c)
libgdrcore_a_SOURCES += src/staging/copier_gdrcopy.c src/staging/copier_gdrcopy.h
