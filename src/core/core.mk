# Core: logging, memory (host backend), verbs resources, connection, test engines, driver.
libgdrcore_a_SOURCES += src/core/log.c src/core/log.h src/core/opts.h src/core/mem.h \
	src/core/stats.h src/core/report.h src/core/xchg.h src/core/oob.h \
	src/core/ctx.h src/core/mem.c src/core/verbs.c src/core/cm.c src/core/session.c \
	src/core/bw.h src/core/bw.c src/core/bw_size.c src/core/lat.h src/core/lat.c \
	src/core/lat_size.c src/core/run.h src/core/run.c \
	src/core/staged.h src/core/staged_bw.c src/core/progress.h src/core/progress.c
