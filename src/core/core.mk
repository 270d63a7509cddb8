# Core: logging, memory (host backend), verbs resources, connection, test engines, driver.
libgdrcore_a_SOURCES += src/core/log.c src/core/log.h src/core/opts.h src/core/mem.h \
	src/core/stats.h src/core/report.h src/core/xchg.h src/core/oob.h
