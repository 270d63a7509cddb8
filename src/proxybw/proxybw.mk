# src/proxybw: gdr_proxy_bw, the gpu-proxy path's kernel -> proxy -> kernel leg with a null NIC.
bin_PROGRAMS += gdr_proxy_bw
gdr_proxy_bw_SOURCES = src/proxybw/main.c src/proxybw/proxybw.h src/proxybw/pb_opts.c \
	src/proxybw/pb_run.c src/proxybw/pb_ping.c src/proxybw/pb_stats.c
dist_man_MANS += man/gdr_proxy_bw.1
