# requires: docker
# timeout: 30
# Passes image references the docker CLI rejects before it contacts any daemon: uppercase letters and an empty tag.
docker run --rm MyImage
docker run --rm "nginx:"
docker build -t MyApp .
