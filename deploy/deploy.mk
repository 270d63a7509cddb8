# deploy: packaging (debian/, rpm/), the container image and Kubernetes manifests; checked by
# scripts/pkg-build.sh (packages) and tests/deploy/check.sh (manifests, Containerfile).
EXTRA_DIST += debian/changelog debian/control debian/copyright debian/rules debian/source/format \
	debian/README.source rpm/gdrperf.spec
dist_noinst_SCRIPTS += scripts/pkg-build.sh
