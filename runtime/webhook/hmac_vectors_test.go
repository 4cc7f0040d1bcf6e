package webhook_test

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

type hmacFile struct {
	Secret  string `json:"secret"`
	Vectors []struct {
		ID                     string `json:"id"`
		Timestamp              int64  `json:"timestamp"`
		RawBody                string `json:"raw_body"`
		ExpectedSignature      string `json:"expected_signature"`
		ExpectedVerifierAction string `json:"expected_verifier_action"`
	} `json:"vectors"`
	RejectionVectors []struct {
		ID          string          `json:"id"`
		Timestamp   json.RawMessage `json:"timestamp"`
		RawBody     string          `json:"raw_body"`
		Signature   *string         `json:"signature"`
		CurrentTime *int64          `json:"current_time"`
	} `json:"rejection_vectors"`
	SecretRejectionVectors []struct {
		Description string `json:"description"`
		Secret      string `json:"secret"`
	} `json:"secret_rejection_vectors"`
	SignerSide struct {
		RejectionVectors []struct {
			ID                   string `json:"id"`
			SignerInputBody      string `json:"signer_input_body"`
			ExpectedSignerAction string `json:"expected_signer_action"`
		} `json:"rejection_vectors"`
		PositiveVectors []struct {
			ID                   string `json:"id"`
			SignerInputBody      string `json:"signer_input_body"`
			ExpectedSignerAction string `json:"expected_signer_action"`
		} `json:"positive_vectors"`
	} `json:"signer_side"`
}

// rejectionWant is the failure class each rejection vector must produce, by
// id; a vector missing here fails the test.
var rejectionWant = map[string]error{
	"truncated-signature":        webhook.ErrSignatureMalformed,
	"wrong-algorithm-prefix":     webhook.ErrSignatureMalformed,
	"empty-signature":            webhook.ErrSignatureMissing,
	"missing-signature":          webhook.ErrSignatureMissing,
	"timestamp-too-old":          webhook.ErrTimestampSkew,
	"timestamp-too-future":       webhook.ErrTimestampSkew,
	"non-numeric-timestamp":      webhook.ErrTimestampInvalid,
	"body-tampered":              webhook.ErrSignatureMismatch,
	"double-prefix":              webhook.ErrSignatureMalformed,
	"signer-spaced-wire-compact": webhook.ErrSignatureMismatch,
}

func TestVectorsWebhookHMAC(t *testing.T) {
	data, err := os.ReadFile(testspec.Path(t, "test-vectors", "webhook-hmac-sha256.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f hmacFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) != 15 || len(f.RejectionVectors) != 10 || len(f.SecretRejectionVectors) != 4 ||
		len(f.SignerSide.RejectionVectors) != 4 || len(f.SignerSide.PositiveVectors) != 1 {
		t.Fatalf("vector counts changed: %d/%d/%d/%d/%d", len(f.Vectors), len(f.RejectionVectors),
			len(f.SecretRejectionVectors), len(f.SignerSide.RejectionVectors), len(f.SignerSide.PositiveVectors))
	}
	h, err := webhook.NewHMAC([]byte(f.Secret))
	if err != nil {
		t.Fatal(err)
	}
	at := func(sec int64) func() time.Time { return func() time.Time { return time.Unix(sec, 0) } }

	for _, v := range f.Vectors {
		t.Run(v.ID, func(t *testing.T) {
			h.Now = at(v.Timestamp)
			ts := strconv.FormatInt(v.Timestamp, 10)
			err := h.Verify(ts, []byte(v.RawBody), v.ExpectedSignature)
			sig, serr := h.Sign(v.Timestamp, []byte(v.RawBody))
			switch v.ExpectedVerifierAction {
			case "":
				if err != nil {
					t.Errorf("Verify: %v", err)
				}
				if serr != nil || sig != v.ExpectedSignature {
					t.Errorf("Sign = %q, %v; want %q", sig, serr, v.ExpectedSignature)
				}
			case "reject-malformed":
				// The signature is valid; the body is malformed. That is a
				// distinct failure, never a mismatch, and the signer refuses
				// such input before computing anything.
				if !errors.Is(err, webhook.ErrBodyMalformed) || errors.Is(err, webhook.ErrSignatureMismatch) {
					t.Errorf("Verify = %v, want ErrBodyMalformed", err)
				}
				var dup *wire.DecodeError
				if !errors.As(err, &dup) || dup.Kind != wire.KindDuplicate || dup.Pointer != "/status" {
					t.Errorf("Verify = %v, want a duplicate key at /status", err)
				}
				if !errors.Is(serr, webhook.ErrDuplicateKeyInput) || sig != "" {
					t.Errorf("Sign = %q, %v; want ErrDuplicateKeyInput", sig, serr)
				}
			default:
				t.Fatalf("verifier action %q unknown to this test", v.ExpectedVerifierAction)
			}
		})
	}

	for _, v := range f.RejectionVectors {
		t.Run("reject/"+v.ID, func(t *testing.T) {
			want, ok := rejectionWant[v.ID]
			if !ok {
				t.Fatalf("rejection vector %q unknown to this test", v.ID)
			}
			now := int64(1700000000)
			if v.CurrentTime != nil {
				now = *v.CurrentTime
			}
			h.Now = at(now)
			ts := string(v.Timestamp)
			if s, err := strconv.Unquote(ts); err == nil {
				ts = s
			}
			sig := ""
			if v.Signature != nil {
				sig = *v.Signature
			}
			err := h.Verify(ts, []byte(v.RawBody), sig)
			if !errors.Is(err, want) {
				t.Errorf("Verify = %v, want %v", err, want)
			}
		})
	}

	for i, v := range f.SecretRejectionVectors {
		t.Run("secret/"+strconv.Itoa(i), func(t *testing.T) {
			if _, err := webhook.NewHMAC([]byte(v.Secret)); err == nil {
				t.Errorf("%s: secret %q accepted", v.Description, v.Secret)
			}
		})
	}

	h.Now = at(1700000000)
	for _, v := range f.SignerSide.RejectionVectors {
		t.Run("signer/"+v.ID, func(t *testing.T) {
			if v.ExpectedSignerAction != "reject-input-before-sign" {
				t.Fatalf("signer action %q unknown to this test", v.ExpectedSignerAction)
			}
			sig, err := h.Sign(1700000000, []byte(v.SignerInputBody))
			var dup *wire.DecodeError
			if !errors.Is(err, webhook.ErrDuplicateKeyInput) || !errors.As(err, &dup) || sig != "" {
				t.Errorf("Sign = %q, %v; want ErrDuplicateKeyInput", sig, err)
			}
		})
	}
	for _, v := range f.SignerSide.PositiveVectors {
		t.Run("signer/"+v.ID, func(t *testing.T) {
			if v.ExpectedSignerAction != "sign-and-emit" {
				t.Fatalf("signer action %q unknown to this test", v.ExpectedSignerAction)
			}
			sig, err := h.Sign(1700000000, []byte(v.SignerInputBody))
			if err != nil {
				t.Fatalf("Sign: %v", err)
			}
			if err := h.Verify("1700000000", []byte(v.SignerInputBody), sig); err != nil {
				t.Errorf("Verify(Sign()) = %v", err)
			}
		})
	}
}
