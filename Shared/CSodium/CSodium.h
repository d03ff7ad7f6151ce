// libsodium: Argon2id, Ed25519, random tokens and AEAD.
#include <sodium.h>
