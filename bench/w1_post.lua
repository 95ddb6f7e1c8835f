-- wrk script for W1: POST the benchmark body as JSON.
wrk.method = "POST"
wrk.body = '{"a":2,"b":3,"name":"bench","tags":["x","y","z"]}'
wrk.headers["Content-Type"] = "application/json"
