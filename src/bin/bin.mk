# The eight test binaries: each names its default test and calls the shared driver.
# They link with the default LDADD (Makefile.am).
GDR_TESTS = gdr_write_bw gdr_read_bw gdr_send_bw gdr_write_lat gdr_read_lat gdr_send_lat \
	gdr_atomic_bw gdr_atomic_lat
bin_PROGRAMS += $(GDR_TESTS)
gdr_write_bw_SOURCES = src/bin/gdr_write_bw.c
gdr_read_bw_SOURCES = src/bin/gdr_read_bw.c
gdr_send_bw_SOURCES = src/bin/gdr_send_bw.c
gdr_write_lat_SOURCES = src/bin/gdr_write_lat.c
gdr_read_lat_SOURCES = src/bin/gdr_read_lat.c
gdr_send_lat_SOURCES = src/bin/gdr_send_lat.c
gdr_atomic_bw_SOURCES = src/bin/gdr_atomic_bw.c
gdr_atomic_lat_SOURCES = src/bin/gdr_atomic_lat.c
