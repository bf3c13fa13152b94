/*
 * libfido2 drives `passkey device --socket PATH` (issue 29): the socket carries CTAPHID reports,
 * exactly 64 bytes each way with no framing, so libfido2's own CTAPHID layer runs over it through
 * fido_dev_set_io_functions, as it runs over a hidraw node.
 *
 * Usage: fido2_socket_test SOCKET_PATH [u2f | uv | uv-deny]
 *
 * Prints one line per step ("ok STEP ..." or "skip STEP: why") and exits 0 when every step that
 * ran passed; on a failure prints "FAIL STEP: libfido2's error" on stderr and exits 1.
 * Steps: get_info; make_cred (verified with fido_cred_verify, or fido_cred_verify_self for self
 * attestation); get_assert with the credential in the allow list and as a discoverable credential
 * (verified with fido_assert_verify against the credential's public key); then, where getInfo
 * offers clientPin, set_pin, a wrong PIN and the retry count, and make_cred/get_assert with the
 * PIN (uv); where it offers credMgmt, fido_credman_* metadata, RPs, credentials and delete.
 * With `u2f`, libfido2 is forced to U2F (fido_dev_force_u2f: CTAPHID_MSG, CTAP1): u2f_make_cred
 * (a non-resident ES256 credential, fido-u2f attestation verified with fido_cred_verify),
 * u2f_get_assert (check-only, then sign, verified with fido_assert_verify), and
 * ctap2_get_assert_u2f_cred: the same credential used through CTAP2 on a second handle (CTAP 2.1
 * §10).
 * With `uv`, against `passkey device --uv auto`, the device's built-in user verification instead
 * (CTAP 2.1 §6.5.5.7.3, no PIN): get_info's uv, uv_modality and uv_attempts; uv_retries
 * (fido_dev_get_uv_retry_count); make_cred_uv with credProtect 3 and get_assert_uv, both with
 * fido_*_set_uv(FIDO_OPT_TRUE) and no PIN, verified and flagged UV; get_assert_no_uv finding
 * nothing. With `uv-deny`, against `--uv deny`: uv_denied (FIDO_ERR_UV_INVALID, a retry spent).
 */
#include <errno.h>
#include <fido.h>
#include <fido/credman.h>
#include <fido/es256.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#define REPORT 64
#define RP_ID "example.com"
#define PIN "4321"

static void fail(const char *step, int r) {
    fprintf(stderr, "FAIL %s: %s (%d)\n", step, fido_strerr(r), r);
    exit(1);
}

static void check(const char *step, int r) {
    if (r != FIDO_OK)
        fail(step, r);
}

static void require(const char *step, bool condition, const char *what) {
    if (!condition) {
        fprintf(stderr, "FAIL %s: %s\n", step, what);
        exit(1);
    }
}

/* The io functions: the handle is the connected socket's descriptor. */

static void *socket_open(const char *path) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof(address.sun_path))
        return NULL;
    strcpy(address.sun_path, path);
    int descriptor = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (descriptor < 0)
        return NULL;
    if (connect(descriptor, (struct sockaddr *)&address, sizeof(address)) != 0) {
        close(descriptor);
        return NULL;
    }
    int *handle = malloc(sizeof(int));
    if (handle == NULL) {
        close(descriptor);
        return NULL;
    }
    *handle = descriptor;
    return handle;
}

static void socket_close(void *handle) {
    close(*(int *)handle);
    free(handle);
}

/* One recv (receive != 0) or send of up to length bytes, tried again when a signal interrupts it:
 * the bytes moved, or -1 when the socket failed or the peer closed it. */
static ssize_t transfer(int descriptor, unsigned char *buffer, size_t length, int receive) {
    for (;;) {
        ssize_t count = receive ? recv(descriptor, buffer, length, 0) : send(descriptor, buffer, length, MSG_NOSIGNAL);
        if (count < 0 && errno == EINTR)
            continue;
        return count <= 0 ? -1 : count;
    }
}

/* One 64-byte report, within ms milliseconds (-1: no limit); libfido2 asks for exactly 64. */
static int socket_read(void *handle, unsigned char *buffer, size_t length, int ms) {
    int descriptor = *(int *)handle;
    size_t filled = 0;
    while (filled < length) {
        struct pollfd ready = {.fd = descriptor, .events = POLLIN};
        int polled = poll(&ready, 1, ms);
        if (polled < 0 && errno == EINTR)
            continue;
        if (polled <= 0)
            return -1;
        ssize_t count = transfer(descriptor, buffer + filled, length - filled, 1);
        if (count < 0)
            return -1;
        filled += (size_t)count;
    }
    return (int)length;
}

/* libfido2 writes the report number (0) and then the 64-byte report, as to a hidraw node: the
 * socket carries the report alone. */
static int socket_write(void *handle, const unsigned char *buffer, size_t length) {
    int descriptor = *(int *)handle;
    if (length != REPORT + 1 || buffer[0] != 0)
        return -1;
    size_t sent = 0;
    while (sent < REPORT) {
        ssize_t count = transfer(descriptor, (unsigned char *)buffer + 1 + sent, REPORT - sent, 0);
        if (count < 0)
            return -1;
        sent += (size_t)count;
    }
    return (int)length;
}

static fido_dev_t *open_device(const char *path, bool u2f) {
    fido_dev_io_t io = {socket_open, socket_close, socket_read, socket_write};
    fido_dev_t *dev = fido_dev_new();
    require("open", dev != NULL, "fido_dev_new");
    check("set_io_functions", fido_dev_set_io_functions(dev, &io));
    check("open", fido_dev_open(dev, path));
    check("set_timeout", fido_dev_set_timeout(dev, 60000));
    if (u2f)
        fido_dev_force_u2f(dev);
    return dev;
}

static unsigned char client_data_hash[32];

/* The user handle of `name`: its bytes, zero-padded to 16, so each user has an account of its own
 * (a resident credential for the same RP and user handle would replace the first, §6.1.2). */
static void user_handle(const char *name, unsigned char handle[16]) {
    memset(handle, 0, 16);
    memcpy(handle, name, strnlen(name, 16));
}

static bool has_option(const fido_cbor_info_t *info, const char *name) {
    char **names = fido_cbor_info_options_name_ptr(info);
    const bool *values = fido_cbor_info_options_value_ptr(info);
    for (size_t i = 0; i < fido_cbor_info_options_len(info); i++)
        if (strcmp(names[i], name) == 0)
            return values[i];
    return false;
}

static bool offers_option(const fido_cbor_info_t *info, const char *name) {
    char **names = fido_cbor_info_options_name_ptr(info);
    for (size_t i = 0; i < fido_cbor_info_options_len(info); i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

/* makeCredential for RP_ID, resident unless through U2F, verified by its attestation statement; with
 * `uv` (no PIN), verified by the device itself and protected at credProtect level 3. */
static fido_cred_t *make_credential_uv(fido_dev_t *dev, const char *step, const char *pin, const char *user,
                                       bool uv) {
    fido_cred_t *cred = fido_cred_new();
    require(step, cred != NULL, "fido_cred_new");
    check(step, fido_cred_set_type(cred, COSE_ES256));
    check(step, fido_cred_set_clientdata_hash(cred, client_data_hash, sizeof(client_data_hash)));
    check(step, fido_cred_set_rp(cred, RP_ID, "Example"));
    unsigned char handle[16];
    user_handle(user, handle);
    check(step, fido_cred_set_user(cred, handle, sizeof(handle), user, user, NULL));
    check(step, fido_cred_set_rk(cred, fido_dev_is_fido2(dev) ? FIDO_OPT_TRUE : FIDO_OPT_OMIT));
    if (uv) {
        check(step, fido_cred_set_uv(cred, FIDO_OPT_TRUE));
        check(step, fido_cred_set_prot(cred, FIDO_CRED_PROT_UV_REQUIRED));
    }
    check(step, fido_dev_make_cred(dev, cred, pin));
    int verified = fido_cred_x5c_len(cred) > 0 ? fido_cred_verify(cred) : fido_cred_verify_self(cred);
    check(step, verified);
    require(step, fido_cred_id_len(cred) > 0 && fido_cred_pubkey_len(cred) > 0, "a credential ID and a key");
    printf("ok %s fmt=%s id_len=%zu flags=0x%02x\n", step, fido_cred_fmt(cred), fido_cred_id_len(cred),
           fido_cred_flags(cred));
    return cred;
}

static fido_cred_t *make_credential(fido_dev_t *dev, const char *step, const char *pin, const char *user) {
    return make_credential_uv(dev, step, pin, user, false);
}

/* getAssertion, with the credential in the allow list or none (discoverable), verified; its flags. */
static int get_assertion_uv(fido_dev_t *dev, const char *step, const fido_cred_t *cred, bool allow, const char *pin,
                            fido_opt_t uv) {
    fido_assert_t *assert = fido_assert_new();
    require(step, assert != NULL, "fido_assert_new");
    check(step, fido_assert_set_rp(assert, RP_ID));
    check(step, fido_assert_set_clientdata_hash(assert, client_data_hash, sizeof(client_data_hash)));
    check(step, fido_assert_set_up(assert, FIDO_OPT_TRUE));
    if (allow)
        check(step, fido_assert_allow_cred(assert, fido_cred_id_ptr(cred), fido_cred_id_len(cred)));
    check(step, fido_assert_set_uv(assert, uv));
    check(step, fido_dev_get_assert(dev, assert, pin));
    require(step, fido_assert_count(assert) == 1, "one assertion");
    es256_pk_t *key = es256_pk_new();
    require(step, key != NULL, "es256_pk_new");
    check(step, es256_pk_from_ptr(key, fido_cred_pubkey_ptr(cred), fido_cred_pubkey_len(cred)));
    check(step, fido_assert_verify(assert, 0, COSE_ES256, key));
    unsigned char handle[16];
    user_handle(fido_cred_user_name(cred), handle);
    if (!allow)
        require(step,
                fido_assert_user_id_len(assert, 0) == sizeof(handle) &&
                    memcmp(fido_assert_user_id_ptr(assert, 0), handle, sizeof(handle)) == 0,
                "the discoverable credential's user handle");
    int flags = fido_assert_flags(assert, 0);
    printf("ok %s flags=0x%02x sigcount=%u\n", step, flags, fido_assert_sigcount(assert, 0));
    es256_pk_free(&key);
    fido_assert_free(&assert);
    return flags;
}

static void get_assertion(fido_dev_t *dev, const char *step, const fido_cred_t *cred, bool allow, const char *pin) {
    get_assertion_uv(dev, step, cred, allow, pin, FIDO_OPT_OMIT);
}

/* A non-resident credential request for `user`, with nothing else set. */
static fido_cred_t *plain_credential(const char *user) {
    fido_cred_t *cred = fido_cred_new();
    fido_cred_set_type(cred, COSE_ES256);
    fido_cred_set_clientdata_hash(cred, client_data_hash, sizeof(client_data_hash));
    fido_cred_set_rp(cred, RP_ID, NULL);
    unsigned char handle[16];
    user_handle(user, handle);
    fido_cred_set_user(cred, handle, sizeof(handle), user, NULL, NULL);
    return cred;
}

/* Built-in user verification, no PIN: the retries, a credential at credProtect 3 made and used with
 * UV, and invisible without it. */
static void uv_steps(fido_dev_t *dev, const fido_cbor_info_t *info) {
    require("get_info", fido_dev_has_uv(dev) && has_option(info, "pinUvAuthToken") && !has_option(info, "clientPin"),
            "uv and pinUvAuthToken, no PIN");
    printf("ok get_info_uv modality=0x%llx attempts=%llu\n", (unsigned long long)fido_cbor_info_uv_modality(info),
           (unsigned long long)fido_cbor_info_uv_attempts(info));
    int retries = -1;
    check("uv_retries", fido_dev_get_uv_retry_count(dev, &retries));
    require("uv_retries", retries == 5, "5 UV retries");
    printf("ok uv_retries retries=%d\n", retries);
    fido_cred_t *cred = make_credential_uv(dev, "make_cred_uv", NULL, "dave", true);
    require("make_cred_uv", (fido_cred_flags(cred) & 0x05) == 0x05, "UP and UV set without a PIN");
    require("make_cred_uv", fido_cred_prot(cred) == FIDO_CRED_PROT_UV_REQUIRED, "credProtect 3");
    int flags = get_assertion_uv(dev, "get_assert_uv", cred, false, NULL, FIDO_OPT_TRUE);
    require("get_assert_uv", (flags & 0x05) == 0x05, "UP and UV set without a PIN");

    fido_assert_t *assert = fido_assert_new();
    fido_assert_set_rp(assert, RP_ID);
    fido_assert_set_clientdata_hash(assert, client_data_hash, sizeof(client_data_hash));
    fido_assert_allow_cred(assert, fido_cred_id_ptr(cred), fido_cred_id_len(cred));
    int hidden = fido_dev_get_assert(dev, assert, NULL);
    require("get_assert_no_uv", hidden == FIDO_ERR_NO_CREDENTIALS, fido_strerr(hidden));
    printf("ok get_assert_no_uv %s\n", fido_strerr(hidden));
    fido_assert_free(&assert);
    fido_cred_free(&cred);
    check("uv_retries", fido_dev_get_uv_retry_count(dev, &retries));
    require("uv_retries", retries == 5, "successes spend no retry");
}

/* `--uv deny`: libfido2 asks for a UV token, the device refuses and counts it. */
static void uv_deny_steps(fido_dev_t *dev) {
    fido_cred_t *cred = plain_credential("erin");
    fido_cred_set_uv(cred, FIDO_OPT_TRUE);
    int refused = fido_dev_make_cred(dev, cred, NULL);
    require("uv_denied", refused == FIDO_ERR_UV_INVALID, fido_strerr(refused));
    fido_cred_free(&cred);
    int retries = -1;
    check("uv_retries", fido_dev_get_uv_retry_count(dev, &retries));
    require("uv_denied", retries == 4, "a refused verification counts down");
    printf("ok uv_denied %s retries=%d\n", fido_strerr(refused), retries);
}

static void pin_steps(fido_dev_t *dev) {
    check("set_pin", fido_dev_set_pin(dev, PIN, NULL));
    printf("ok set_pin\n");
    int retries = -1;
    check("retry_count", fido_dev_get_retry_count(dev, &retries));
    require("retry_count", retries == 8, "8 retries after setPIN");
    fido_cred_t *wrong = plain_credential("bob");
    int refused = fido_dev_make_cred(dev, wrong, "0000");
    require("wrong_pin", refused == FIDO_ERR_PIN_INVALID, fido_strerr(refused));
    fido_cred_free(&wrong);
    check("retry_count", fido_dev_get_retry_count(dev, &retries));
    require("retry_count", retries == 7, "a wrong PIN counts down");
    printf("ok wrong_pin retries=%d\n", retries);
    fido_cred_t *cred = make_credential(dev, "make_cred_pin", PIN, "carol");
    require("make_cred_pin", (fido_cred_flags(cred) & 0x04) != 0, "UV set with the PIN");
    get_assertion(dev, "get_assert_pin", cred, true, PIN);
    fido_cred_free(&cred);
    check("retry_count", fido_dev_get_retry_count(dev, &retries));
    require("retry_count", retries == 8, "the right PIN restores the retries");
}

static void credman_steps(fido_dev_t *dev, const char *pin, const fido_cred_t *cred) {
    fido_credman_metadata_t *metadata = fido_credman_metadata_new();
    check("credman_metadata", fido_credman_get_dev_metadata(dev, metadata, pin));
    require("credman_metadata", fido_credman_rk_existing(metadata) >= 1, "at least one resident credential");
    printf("ok credman_metadata existing=%llu remaining=%llu\n",
           (unsigned long long)fido_credman_rk_existing(metadata),
           (unsigned long long)fido_credman_rk_remaining(metadata));
    fido_credman_metadata_free(&metadata);

    fido_credman_rp_t *rps = fido_credman_rp_new();
    check("credman_rps", fido_credman_get_dev_rp(dev, rps, pin));
    bool found = false;
    for (size_t i = 0; i < fido_credman_rp_count(rps); i++)
        found = found || strcmp(fido_credman_rp_id(rps, i), RP_ID) == 0;
    require("credman_rps", found, RP_ID " among the RPs");
    printf("ok credman_rps count=%zu\n", fido_credman_rp_count(rps));
    fido_credman_rp_free(&rps);

    fido_credman_rk_t *rks = fido_credman_rk_new();
    check("credman_rks", fido_credman_get_dev_rk(dev, RP_ID, rks, pin));
    size_t before = fido_credman_rk_count(rks);
    require("credman_rks", before >= 1, "the RP's credentials");
    printf("ok credman_rks count=%zu\n", before);
    fido_credman_rk_free(&rks);

    check("credman_delete", fido_credman_del_dev_rk(dev, fido_cred_id_ptr(cred), fido_cred_id_len(cred), pin));
    rks = fido_credman_rk_new();
    int listed = fido_credman_get_dev_rk(dev, RP_ID, rks, pin);
    size_t after = listed == FIDO_OK ? fido_credman_rk_count(rks) : 0;
    require("credman_delete", after == before - 1, "one credential fewer");
    printf("ok credman_delete left=%zu\n", after);
    fido_credman_rk_free(&rks);
}

/* U2F (CTAP1) through libfido2's own u2f.c, then the U2F credential through CTAP2. */
static int u2f_steps(const char *path) {
    fido_dev_t *dev = open_device(path, true);
    require("open", !fido_dev_is_fido2(dev), "forced to U2F");
    fido_cred_t *cred = make_credential(dev, "u2f_make_cred", NULL, "dora");
    require("u2f_make_cred", strcmp(fido_cred_fmt(cred), "fido-u2f") == 0 && fido_cred_x5c_len(cred) > 0,
            "a fido-u2f attestation with its certificate");
    get_assertion(dev, "u2f_get_assert", cred, true, NULL);
    fido_dev_close(dev);
    fido_dev_free(&dev);

    fido_dev_t *ctap2 = open_device(path, false);
    require("ctap2_get_assert_u2f_cred", fido_dev_is_fido2(ctap2), "a FIDO2 device");
    get_assertion(ctap2, "ctap2_get_assert_u2f_cred", cred, true, NULL);
    fido_dev_close(ctap2);
    fido_dev_free(&ctap2);
    fido_cred_free(&cred);
    printf("done\n");
    return 0;
}

int main(int argc, char **argv) {
    const char *mode = argc == 3 ? argv[2] : "";
    if (argc < 2 || argc > 3
        || (argc == 3 && strcmp(mode, "u2f") != 0 && strcmp(mode, "uv") != 0 && strcmp(mode, "uv-deny") != 0)) {
        fprintf(stderr, "usage: %s SOCKET_PATH [u2f | uv | uv-deny]\n", argv[0]);
        return 2;
    }
    fido_init(0);
    for (size_t i = 0; i < sizeof(client_data_hash); i++)
        client_data_hash[i] = (unsigned char)(i * 7 + 1);
    if (strcmp(mode, "u2f") == 0)
        return u2f_steps(argv[1]);
    fido_dev_t *dev = open_device(argv[1], false);
    require("open", fido_dev_is_fido2(dev), "a FIDO2 device (CTAPHID_INIT capabilities: CBOR)");

    fido_cbor_info_t *info = fido_cbor_info_new();
    check("get_info", fido_dev_get_cbor_info(dev, info));
    char **versions = fido_cbor_info_versions_ptr(info);
    bool fido20 = false;
    printf("ok get_info versions=");
    for (size_t i = 0; i < fido_cbor_info_versions_len(info); i++) {
        printf("%s%s", i ? "," : "", versions[i]);
        fido20 = fido20 || strcmp(versions[i], "FIDO_2_0") == 0;
    }
    printf(" aaguid_len=%zu rk=%d\n", fido_cbor_info_aaguid_len(info), has_option(info, "rk"));
    require("get_info", fido20 && fido_cbor_info_aaguid_len(info) == 16 && has_option(info, "rk"),
            "FIDO_2_0, a 16-byte AAGUID, rk");
    if (*mode != '\0') {
        if (strcmp(mode, "uv") == 0)
            uv_steps(dev, info);
        else
            uv_deny_steps(dev);
        fido_cbor_info_free(&info);
        fido_dev_close(dev);
        fido_dev_free(&dev);
        printf("done\n");
        return 0;
    }

    fido_cred_t *cred = make_credential(dev, "make_cred", NULL, "alice");
    get_assertion(dev, "get_assert", cred, true, NULL);
    get_assertion(dev, "get_assert_discoverable", cred, false, NULL);

    const char *pin = NULL;
    if (offers_option(info, "clientPin")) {
        require("set_pin", !has_option(info, "clientPin"), "a fresh device has no PIN");
        pin_steps(dev);
        pin = PIN;
    } else {
        printf("skip set_pin: getInfo offers no clientPin\n");
    }
    if (has_option(info, "credMgmt") && pin != NULL)
        credman_steps(dev, pin, cred);
    else
        printf("skip credman: getInfo offers no credMgmt%s\n", pin == NULL ? " or no PIN" : "");

    fido_cred_free(&cred);
    fido_cbor_info_free(&info);
    fido_dev_close(dev);
    fido_dev_free(&dev);
    printf("done\n");
    return 0;
}
