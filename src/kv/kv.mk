# src/kv: KV-cache-shaped transfers: the placement of a batch's blocks in the remote pool, the
# pool's regions, and a model's shape in blocks (pure; depends on nothing but libc).
libgdrcore_a_SOURCES += src/kv/place.c src/kv/place.h src/kv/preset.c src/kv/preset.h \
	src/kv/region.c src/kv/region.h

check_PROGRAMS += tests/unit/t_kv_place
TESTS += tests/unit/t_kv_place
tests_unit_t_kv_place_SOURCES = tests/unit/t_kv_place.c

check_PROGRAMS += tests/unit/t_kv_preset
TESTS += tests/unit/t_kv_preset
tests_unit_t_kv_preset_SOURCES = tests/unit/t_kv_preset.c

check_PROGRAMS += tests/unit/t_kv_region
TESTS += tests/unit/t_kv_region
tests_unit_t_kv_region_SOURCES = tests/unit/t_kv_region.c
