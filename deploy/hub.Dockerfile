# The hub of a Docker class (docker-compose.yml, profile "class"): Debian's JupyterHub 3.0 and
# its proxy, DockerSpawner installed from PyPI when the image is built (the one step that needs
# more than Debian's archive), and deploy/jupyterhub_config.py in its docker mode. It starts each
# student's server in a container of the single-user image (the repository's Dockerfile).
FROM debian:bookworm-slim
RUN apt-get update -qq \
 && apt-get install -y -qq --no-install-recommends jupyterhub node-configurable-http-proxy python3-pip \
 && pip3 install --no-cache-dir --break-system-packages 'dockerspawner==12.1.0' \
 && rm -rf /var/lib/apt/lists/*
COPY deploy/jupyterhub_config.py /etc/gptnotes/deploy/jupyterhub_config.py
ENV GPTNOTES_HUB=docker GPTNOTES_HUB_STATE=/srv/jupyterhub GPTNOTES_HUB_URL=http://0.0.0.0:8000
WORKDIR /srv/jupyterhub
EXPOSE 8000
CMD ["jupyterhub", "-f", "/etc/gptnotes/deploy/jupyterhub_config.py"]
