/* SPDX-License-Identifier: MIT */
/* Refuse further clients clearly while a test runs (a thread on the listening socket). */
#include "config.h"
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "log.h"
#include "oob.h"

static void refuse(struct gdr_busy *b, int fd)
{
	struct gdr_msg m = { .type = GDR_MSG_REJECT };
	uint8_t buf[GDR_FRAME_HDR + GDR_MAX_PAYLOAD];
	size_t n;

	snprintf(m.u.reason, sizeof(m.u.reason), "%s", b->reason);
	n = gdr_msg_encode(&m, buf, sizeof(buf));
	/* Best effort: one non-blocking write of a small frame, then close. */
	if (n && send(fd, buf, n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		gdr_warn("could not tell a second client that the server is busy: %s",
			 strerror(errno));
	close(fd);
	b->refused++;
}

static void *busy_main(void *arg)
{
	struct gdr_busy *b = arg;

	while (!__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE)) {
		struct pollfd p = { .fd = b->lfd, .events = POLLIN };
		struct sockaddr_storage ss;
		socklen_t len = sizeof(ss);
		int fd;

		if (poll(&p, 1, 100) <= 0)
			continue;
		fd = accept4(b->lfd, (struct sockaddr *)&ss, &len, SOCK_CLOEXEC);
		if (fd >= 0 && b->allow && !gdr_allow_match(b->allow, (struct sockaddr *)&ss))
			close(fd); /* not in --allow: closed unread, unanswered */
		else if (fd >= 0)
			refuse(b, fd);
	}
	return NULL;
}

int gdr_busy_start(struct gdr_busy *b, int lfd, const char *reason)
{
	pthread_t t;
	int err;

	b->lfd = lfd;
	b->stop = 0;
	b->refused = 0;
	snprintf(b->reason, sizeof(b->reason), "%s", reason);
	err = pthread_create(&t, NULL, busy_main, b);
	if (err) {
		gdr_warn("cannot start the busy responder: %s", strerror(err));
		return -1;
	}
	b->thread = t;
	b->running = 1;
	return 0;
}

void gdr_busy_stop(struct gdr_busy *b)
{
	if (!b->running)
		return;
	__atomic_store_n(&b->stop, 1, __ATOMIC_RELEASE);
	pthread_join(b->thread, NULL);
	b->running = 0;
}
