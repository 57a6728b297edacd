# Jupyter + gptnotes in one image. Its build steps are the Makefile targets `make test` runs
# (deps, build), so what CI tests is what the image contains.
FROM golang:1.26-bookworm
WORKDIR /gptnotes
COPY . .
RUN make deps build
ENV GPT2_WEIGHTS=/weights
EXPOSE 8888
CMD ["bin/gptnotes", "notebook", "--ip=0.0.0.0", "--port=8888", "--no-browser", "--allow-root"]
