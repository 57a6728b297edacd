# The single-user image: Jupyter's classic notebook and JupyterHub's single-user server, gptnotes
# with its kernelspec, the notebooks and the shipped model, run as the non-root user "student".
# No test packages (Chromium, pytest, nbclient, numpy): the Makefile's RUN_PACKAGES alone
# (Debian's jupyterhub, the only Debian package with jupyterhub-singleuser, brings the hub's
# proxy and Node.js along, which the single-user server does not use).
#
#   docker compose up --build                     one notebook server on 127.0.0.1:8888
#   docker compose --profile class up --build     a class: JupyterHub + DockerSpawner (deploy/)
#
# Its command, gptnotes-start-singleuser (deploy/start-singleuser), copies the course notebooks
# a student lacks into ~/gptnotes, then starts jupyterhub-singleuser under a hub (DockerSpawner,
# Zero to JupyterHub), or `gptnotes notebook` alone.

# Build: the binary, with the same `make build` the tests run, installing only what it needs.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY . .
# The students' image holds the exercises only: the solutions (*-solutions.ipynb) reach a
# teacher's server from the host (deploy/jupyterhub_config.py, mode docker), never this image.
RUN make build DEPS=deps-build \
 && mkdir /course && cp notebooks/*.ipynb /course/ && rm /course/*-solutions.ipynb

FROM debian:bookworm-slim
COPY Makefile /tmp/gptnotes.mk
# Debian's recommends stay out (the Makefile's apt-get installs them on a desktop): with them the
# image was 2.14 GB, without them 764 MB (docs/docker.md).
RUN echo 'APT::Install-Recommends "false";' >/etc/apt/apt.conf.d/90gptnotes-no-recommends \
 && apt-get update -qq && apt-get install -y -qq make \
 && make -f /tmp/gptnotes.mk deps-run \
 && apt-get purge -y -qq make && apt-get autoremove -y -qq \
 && rm -rf /var/lib/apt/lists/* /tmp/gptnotes.mk
COPY --from=build /src/bin/gptnotes /usr/local/bin/gptnotes
COPY --from=build /course/ /opt/gptnotes/notebooks/
COPY testdata/gopher.safetensors testdata/gopher.tok testdata/induction.* /opt/gptnotes/testdata/
COPY deploy/start-singleuser /usr/local/bin/gptnotes-start-singleuser
# The kernelspec system-wide (/usr/local/share/jupyter/kernels/gptnotes), so any user's server
# finds it.
RUN gptnotes install --user=false \
 && useradd --create-home --uid 1000 --gid 100 --shell /bin/bash student
# The hub's configuration adds each kernel's memory limit and GOMAXPROCS=1 (deploy/).
ENV GPTNOTES_MODEL=/opt/gptnotes/testdata/gopher.safetensors \
    GPTNOTES_COURSE=/opt/gptnotes/notebooks
USER student
WORKDIR /home/student
EXPOSE 8888
# Alone, it serves ~/gptnotes (the course copied in) on port 8888; a hub runs the same command.
CMD ["gptnotes-start-singleuser", "--ip=0.0.0.0", "--port=8888", "--no-browser"]
