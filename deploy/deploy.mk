# deploy: packaging (debian/, rpm/), the container image and Kubernetes manifests; checked by
# scripts/ci/pkg-build.sh (packages) and tests/deploy/check.sh (manifests, Containerfile).
EXTRA_DIST += debian/changelog debian/control debian/copyright debian/rules debian/source/format \
	debian/README.source rpm/gdrperf.spec
EXTRA_DIST += Containerfile .containerignore deploy/k8s/namespace.yaml \
	deploy/k8s/doctor-daemonset.yaml deploy/k8s/pair-test.yaml
EXTRA_DIST += tests/deploy/check.sh tests/deploy/check.py tests/deploy/k8s-schema.json \
	tests/deploy/bad/nodeselector-bool.yaml tests/deploy/bad/unknown-option.yaml \
	tests/deploy/bad/bad-value.yaml tests/deploy/bad/shell-line.yaml \
	tests/deploy/bad/no-program.yaml tests/deploy/bad/selector.yaml \
	tests/deploy/bad/job-restart.yaml tests/deploy/bad/typo-field.yaml \
	tests/deploy/bad/Containerfile.cuda-runtime tests/deploy/bad/Containerfile.copy-missing \
	tests/deploy/bad/Containerfile.unpinned
dist_noinst_SCRIPTS += scripts/ci/pkg-build.sh scripts/ci/pkg-check.sh
