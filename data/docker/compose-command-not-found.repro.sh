# requires: docker
# timeout: 30
# Calls Compose both ways on a machine that has the docker CLI but neither the Compose v2 plugin nor the old docker-compose binary.
printf 'services:\n  web:\n    image: nginx:1.27\n' > compose.yaml
docker compose up
docker compose up -d
docker-compose up -d
