#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/obj_mac.h>
#include <openssl/objects.h>
#include <openssl/param_build.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

// Helpers for what Swift cannot call: macros (OPENSSL_free, BN_num_bytes, sk_X509_*) and
// OSSL_PARAM arrays, which keep pointers into their caller's buffers and so are built here.

/// OPENSSL_free is a macro.
static inline void ccrypto_free(void *pointer) { OPENSSL_free(pointer); }

/// BN_num_bytes is a macro.
static inline int ccrypto_bn_num_bytes(const BIGNUM *bn) { return BN_num_bytes(bn); }

/// Builds a key of `type` ("EC", "RSA") from an OSSL_PARAM_BLD; `selection` is EVP_PKEY_PUBLIC_KEY
/// or EVP_PKEY_KEYPAIR.
static inline EVP_PKEY *ccrypto_pkey_fromdata(const char *type, OSSL_PARAM_BLD *bld, int selection) {
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
    if (params != NULL && ctx != NULL && EVP_PKEY_fromdata_init(ctx) == 1) {
        if (EVP_PKEY_fromdata(ctx, &pkey, selection, params) != 1) {
            pkey = NULL;
        }
    }
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    return pkey;
}

/// An EC public key on `group` ("prime256v1", "secp384r1", "secp521r1") from its SEC1 point
/// (`04 ‖ x ‖ y`). OpenSSL checks that the point is on the curve.
static inline EVP_PKEY *ccrypto_ec_public_key(const char *group, const uint8_t *pub, size_t len) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    EVP_PKEY *pkey = NULL;
    if (bld != NULL && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) == 1
        && OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, len) == 1) {
        pkey = ccrypto_pkey_fromdata("EC", bld, EVP_PKEY_PUBLIC_KEY);
    }
    OSSL_PARAM_BLD_free(bld);
    return pkey;
}

/// An EC key pair on `group` from the big-endian private scalar `d`.
///
/// OpenSSL 3.0's EVP_PKEY_fromdata does not derive the public point from `d`, so it is computed
/// here as d·G with the (non-deprecated) EC_GROUP / EC_POINT API. A scalar of 0 or ≥ the group
/// order is rejected with EC_R_INVALID_PRIVATE_KEY on the error queue.
static inline EVP_PKEY *ccrypto_ec_private_key(const char *group, const uint8_t *d, size_t len) {
    EVP_PKEY *pkey = NULL;
    EC_GROUP *ec_group = EC_GROUP_new_by_curve_name(OBJ_txt2nid(group));
    BIGNUM *priv = BN_secure_new();
    BN_CTX *bn_ctx = BN_CTX_secure_new();
    EC_POINT *point = NULL;
    uint8_t pub[1 + 2 * 66];
    size_t pub_len = 0;
    OSSL_PARAM_BLD *bld = NULL;
    if (ec_group == NULL || priv == NULL || bn_ctx == NULL || BN_bin2bn(d, (int)len, priv) == NULL) {
        goto done;
    }
    if (BN_is_zero(priv) || BN_cmp(priv, EC_GROUP_get0_order(ec_group)) >= 0) {
        ERR_raise(ERR_LIB_EC, EC_R_INVALID_PRIVATE_KEY);
        goto done;
    }
    point = EC_POINT_new(ec_group);
    if (point == NULL || EC_POINT_mul(ec_group, point, priv, NULL, NULL, bn_ctx) != 1) {
        goto done;
    }
    pub_len = EC_POINT_point2oct(ec_group, point, POINT_CONVERSION_UNCOMPRESSED, pub, sizeof pub, bn_ctx);
    bld = OSSL_PARAM_BLD_new();
    if (pub_len == 0 || bld == NULL
        || OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) != 1
        || OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, pub_len) != 1
        || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, priv) != 1) {
        goto done;
    }
    pkey = ccrypto_pkey_fromdata("EC", bld, EVP_PKEY_KEYPAIR);
done:
    OSSL_PARAM_BLD_free(bld);  // the builder's copy of d is in secure memory, cleared on free
    EC_POINT_free(point);
    BN_CTX_free(bn_ctx);
    BN_clear_free(priv);
    EC_GROUP_free(ec_group);
    return pkey;
}

/// An RSA public key from its big-endian modulus and exponent.
static inline EVP_PKEY *ccrypto_rsa_public_key(const uint8_t *n, size_t n_len, const uint8_t *e, size_t e_len) {
    EVP_PKEY *pkey = NULL;
    BIGNUM *bn_n = BN_bin2bn(n, (int)n_len, NULL);
    BIGNUM *bn_e = BN_bin2bn(e, (int)e_len, NULL);
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    if (bn_n != NULL && bn_e != NULL && bld != NULL
        && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n) == 1
        && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e) == 1) {
        pkey = ccrypto_pkey_fromdata("RSA", bld, EVP_PKEY_PUBLIC_KEY);
    }
    OSSL_PARAM_BLD_free(bld);
    BN_free(bn_e);
    BN_free(bn_n);
    return pkey;
}

/// An RSA key pair of `bits` with e = 65537 (tests only; the library never makes RSA keys).
static inline EVP_PKEY *ccrypto_rsa_generate(unsigned int bits) {
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (ctx != NULL && EVP_PKEY_keygen_init(ctx) == 1) {
        OSSL_PARAM params[] = {
            OSSL_PARAM_construct_uint(OSSL_PKEY_PARAM_RSA_BITS, &bits),
            OSSL_PARAM_construct_end(),
        };
        if (EVP_PKEY_CTX_set_params(ctx, params) != 1 || EVP_PKEY_generate(ctx, &pkey) != 1) {
            pkey = NULL;
        }
    }
    EVP_PKEY_CTX_free(ctx);
    return pkey;
}

/// Runs the EVP_KDF `name` with `params` into `out`; returns 1 on success.
static inline int ccrypto_kdf_derive(const char *name, uint8_t *out, size_t out_len, const OSSL_PARAM *params) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, name, NULL);
    EVP_KDF_CTX *ctx = kdf != NULL ? EVP_KDF_CTX_new(kdf) : NULL;
    int ok = ctx != NULL && EVP_KDF_derive(ctx, out, out_len, params) == 1;
    EVP_KDF_CTX_free(ctx);
    EVP_KDF_free(kdf);
    return ok;
}

/// HKDF-SHA-256 (RFC 5869), extract then expand. Empty salt or info are left out, which HKDF
/// treats as the empty string.
static inline int ccrypto_hkdf_sha256(
    uint8_t *out, size_t out_len, const uint8_t *ikm, size_t ikm_len, const uint8_t *salt, size_t salt_len,
    const uint8_t *info, size_t info_len) {
    OSSL_PARAM params[5];
    size_t count = 0;
    params[count++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    params[count++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len);
    if (salt_len > 0) {
        params[count++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len);
    }
    if (info_len > 0) {
        params[count++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_len);
    }
    params[count] = OSSL_PARAM_construct_end();
    return ccrypto_kdf_derive("HKDF", out, out_len, params);
}

/// scrypt (RFC 7914) with the given cost parameters and a memory ceiling of `maxmem` bytes.
static inline int ccrypto_scrypt(
    uint8_t *out, size_t out_len, const uint8_t *password, size_t password_len, const uint8_t *salt,
    size_t salt_len, uint64_t n, uint32_t r, uint32_t p, uint64_t maxmem) {
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, (void *)password, password_len),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maxmem),
        OSSL_PARAM_construct_end(),
    };
    return ccrypto_kdf_derive("SCRYPT", out, out_len, params);
}

/// A STACK_OF(X509) (the sk_X509_* API is macros). Push takes ownership of the certificate.
static inline STACK_OF(X509) *ccrypto_x509_stack_new(void) { return sk_X509_new_null(); }
static inline int ccrypto_x509_stack_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate) > 0;
}
static inline void ccrypto_x509_stack_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

#endif
