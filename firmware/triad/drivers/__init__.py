# The only package that touches hardware. One module per runtime/board family;
# everything above it sees plain buffers (raw matrix, button levels, frame).
