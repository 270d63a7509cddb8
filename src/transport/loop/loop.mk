# src/transport/loop: the loop transport, two processes of one host and no NIC (loop.h).
libgdrcore_a_SOURCES += src/transport/loop/loop.h src/transport/loop/loop_xp.h \
	src/transport/loop/loop_xp.c src/transport/loop/loop_ep.c src/transport/loop/loop_run.c \
	src/transport/loop/loop_data.c
