# src/launch: the test binaries' program: options, then the driver (one pair) or cluster mode.
libgdrcore_a_SOURCES += src/launch/launch.h src/launch/launch.c src/launch/rails.h src/launch/rails.c
