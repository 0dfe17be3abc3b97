"""Remote play: two machines each run the rules and exchange only decisions, dice and control
messages (`wire`), a seat is taken with a code (`codes`) over TLS (`tls`), the dice are settled
by commit and reveal (`fair`), and `peer` is the remote side as one more answer source."""
