# The Store Doctor CLI image: the guard sidecar and the init container of deploy/kubernetes/.
#
# Not built on the project's machines (they have no container engine and no base images); the
# entrypoint it runs — `store-doctor` from the npm package, with the manifests' arguments — is
# tested in test/deploy/. Build it where Docker runs:
#   docker build -t store-doctor:0.1.0 .
FROM node:20.19-bookworm-slim AS build
WORKDIR /src
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
# prepack builds the UI and the compiled CLI; the tarball needs no node_modules
RUN npm pack && mv store-doctor-*.tgz /store-doctor.tgz

FROM node:20.19-bookworm-slim
COPY --from=build /store-doctor.tgz /tmp/store-doctor.tgz
RUN npm install -g /tmp/store-doctor.tgz --offline --no-audit --no-fund && rm /tmp/store-doctor.tgz && npm cache clean --force
# A small young generation keeps the guard under 80 MB RSS (npm run bench:guard).
ENV NODE_OPTIONS=--max-semi-space-size=1
# The manifests set the user: the guard runs as Fluent Bit's user (see deploy/kubernetes/daemonset.yaml).
WORKDIR /
ENTRYPOINT ["store-doctor"]
CMD ["--help"]
