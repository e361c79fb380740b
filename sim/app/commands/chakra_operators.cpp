// Named operators of Chakra compute nodes (chakra_operators.h).
#include "sim/app/commands/chakra_operators.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <sstream>

namespace trn::app {

namespace {

using models::Engine;
using workloads::GraphOp;
using workloads::OpKind;
using workloads::Phase;

// A value of an IOInfo text: an atom (number, word or quoted string, quotes removed) or a list
// (Python list or tuple).
struct PyValue {
  bool list = false;
  std::string atom;
  std::vector<PyValue> items;
};

struct PyParser {
  const std::string& s;
  size_t i = 0;
  void space() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool value(PyValue* v) {
    space();
    if (i >= s.size()) return false;
    if (s[i] == '[' || s[i] == '(') {
      const char close = s[i] == '[' ? ']' : ')';
      ++i;
      v->list = true;
      for (space(); i < s.size() && s[i] != close; space()) {
        if (!value(&v->items.emplace_back())) return false;
        space();
        if (i < s.size() && s[i] == ',') ++i;
      }
      if (i >= s.size()) return false;
      ++i;
      return true;
    }
    if (s[i] == '\'' || s[i] == '"') {
      const char q = s[i++];
      while (i < s.size() && s[i] != q) v->atom += s[i++];
      if (i >= s.size()) return false;
      ++i;
      return true;
    }
    while (i < s.size() && s[i] != ',' && s[i] != ']' && s[i] != ')') v->atom += s[i++];
    while (!v->atom.empty() && std::isspace(static_cast<unsigned char>(v->atom.back()))) v->atom.pop_back();
    return !v->atom.empty();
  }
};

// The entries of a list text; empty when the text is empty or not a list.
std::vector<PyValue> entries(const std::string& text) {
  PyParser p{text};
  PyValue v;
  if (text.empty() || !p.value(&v) || !v.list) return {};
  return v.items;
}

// A shape: a list of non-negative integers ([] for a scalar). False for anything else (a list of
// tensors, None).
bool as_shape(const PyValue& v, std::vector<int64_t>* out) {
  if (!v.list) return false;
  out->clear();
  for (const PyValue& d : v.items) {
    if (d.list || d.atom.empty()) return false;
    char* end = nullptr;
    const long long x = std::strtoll(d.atom.c_str(), &end, 10);
    if (*end != '\0' || x < 0) return false;
    out->push_back(x);
  }
  return true;
}

double numel(const std::vector<int64_t>& shape) {
  double n = 1;
  for (int64_t d : shape) n *= static_cast<double>(d);
  return n;
}

// The operator's bare name: no namespace, overload or in-place underscore.
std::string bare(std::string name) {
  const size_t ns = name.rfind("::");
  if (ns != std::string::npos) name = name.substr(ns + 2);
  const size_t dot = name.find('.');
  if (dot != std::string::npos) name = name.substr(0, dot);
  if (name.size() > 1 && name.back() == '_' && name[name.size() - 2] != '_') name.pop_back();
  return name;
}

models::DType dtype_of(const std::string& type) {
  if (type.find("MXFP8") != std::string::npos) return models::DType::MXFP8;
  if (type.find("Float8") != std::string::npos) return models::DType::FP8;
  if (type.find("BFloat16") != std::string::npos) return models::DType::BF16;
  if (type.find("Half") != std::string::npos) return models::DType::FP16;
  if (type.find("(float)") != std::string::npos || type.find("(double)") != std::string::npos ||
      type.find("::Float)") != std::string::npos)
    return models::DType::FP32;
  return models::DType::BF16;
}

// The operands of a node: the shapes of its tensor arguments in order, their dtype, and the
// values of its Bool arguments in order.
struct Operands {
  std::vector<std::vector<int64_t>> tensors;
  models::DType dtype = models::DType::BF16;
  std::vector<bool> bools;
};

Operands operands(const std::string& shapes, const std::string& types, const std::string& values) {
  Operands o;
  const std::vector<PyValue> sh = entries(shapes), ty = entries(types), va = entries(values);
  bool typed = false;
  for (size_t a = 0; a < std::max(sh.size(), ty.size()); ++a) {
    const std::string t = a < ty.size() ? ty[a].atom : std::string();
    if (!t.empty() && t.rfind("Tensor", 0) != 0) {  // a typed argument that is not a tensor
      if (t == "Bool" && a < va.size()) o.bools.push_back(va[a].atom == "True" || va[a].atom == "true");
      continue;
    }
    std::vector<int64_t> shape;
    if (a >= sh.size() || !as_shape(sh[a], &shape) || shape.empty()) continue;
    o.tensors.push_back(shape);
    if (!typed && !t.empty()) {
      o.dtype = dtype_of(t);
      typed = true;
    }
  }
  return o;
}

bool fail(std::string* why, const std::string& text) {
  *why = text;
  return false;
}

// [..., M, K] x [K, N] or [..., M, K] x [..., K, N] (the batch dimensions of the first operand).
bool matmul(const std::string& op, const Operands& o, GraphOp* g, std::string* why) {
  const bool bias_first = op == "addmm" || op == "baddbmm";
  const size_t a = bias_first ? 1 : 0;
  if (o.tensors.size() < a + 2) return fail(why, op + " needs two matrix operands with shapes");
  const std::vector<int64_t>& x = o.tensors[a];
  const std::vector<int64_t>& w = o.tensors[a + 1];
  if (x.size() < 2 || w.size() < 2) return fail(why, op + ": operands of rank < 2");
  double batch = 1, m = 0, k = 0, n = 0;
  if (op == "linear") {  // x [..., K], weight [N, K]
    if (w.size() != 2 || w[1] != x.back()) return fail(why, "linear: weight is not [N, K]");
    m = numel(x) / static_cast<double>(x.back());
    k = static_cast<double>(x.back());
    n = static_cast<double>(w[0]);
  } else {
    k = static_cast<double>(x.back());
    m = static_cast<double>(x[x.size() - 2]);
    n = static_cast<double>(w.back());
    if (w[w.size() - 2] != x.back()) return fail(why, op + ": contraction dimensions differ");
    const double lead = numel(x) / (m * k);
    if (w.size() == 2) {
      m *= lead;  // [..., M, K] x [K, N]: one GEMM over every leading row
    } else {
      batch = lead;
    }
  }
  g->kind = OpKind::Matmul;
  g->tokens = m;
  g->k = k;
  g->n = n;
  g->experts = static_cast<int>(batch);
  if (static_cast<double>(g->experts) != batch) return fail(why, op + ": batch too large");
  return true;
}

// Q [B, H, S, D], K [B, Hkv, S, D] (after the output gradient in the backward form).
bool attention(const std::string& op, const Operands& o, GraphOp* g, std::string* why) {
  const bool bwd = op.find("backward") != std::string::npos;
  const size_t q = bwd ? 1 : 0;
  if (o.tensors.size() < q + 2) return fail(why, op + " needs the query and key shapes");
  const std::vector<int64_t>& Q = o.tensors[q];
  const std::vector<int64_t>& K = o.tensors[q + 1];
  if (Q.size() != 4 || K.size() != 4) return fail(why, op + ": query and key are not [B, H, S, D]");
  if (Q[0] != K[0] || Q[3] != K[3] || Q[2] != K[2] || K[1] <= 0 || Q[1] % K[1] != 0)
    return fail(why, op + ": query and key do not describe self-attention of one sequence length");
  g->kind = OpKind::Attention;
  g->phase = bwd ? Phase::Backward : Phase::Forward;
  g->sequences = static_cast<double>(Q[0]);
  g->heads = static_cast<int>(Q[1]);
  g->kv_heads = static_cast<int>(K[1]);
  g->seq = static_cast<double>(Q[2]);
  g->head_dim = static_cast<int>(Q[3]);
  g->tokens = g->seq * g->sequences;
  g->causal = !o.bools.empty() && o.bools.front();
  return true;
}

struct Streaming {
  Engine engine;
  int inputs;  // 0: as many as the node has tensor operands
  bool norm;
};

const std::map<std::string, Streaming>& streaming_ops() {
  static const std::map<std::string, Streaming> ops = [] {
    std::map<std::string, Streaming> m;
    for (const char* n : {"add", "sub", "rsub", "mul", "div", "where", "masked_fill", "maximum", "minimum", "addcmul",
                          "addcdiv", "lerp", "threshold_backward", "silu_backward", "gelu_backward", "sigmoid_backward",
                          "tanh_backward", "_softmax_backward_data", "_log_softmax_backward_data"})
      m[n] = {Engine::Vector, 2, false};
    for (const char* n : {"neg", "abs", "copy", "clone", "_to_copy", "to", "fill", "zero", "sum", "mean", "amax",
                          "clamp", "reciprocal"})
      m[n] = {Engine::Vector, 1, false};
    for (const char* n : {"exp", "log", "silu", "gelu", "relu", "tanh", "sigmoid", "rsqrt", "sqrt", "pow", "erf",
                          "softmax", "_softmax", "log_softmax", "_log_softmax"})
      m[n] = {Engine::Scalar, 1, false};
    for (const char* n :
         {"layer_norm", "native_layer_norm", "rms_norm", "_fused_rms_norm", "group_norm", "native_group_norm"})
      m[n] = {Engine::Vector, 1, true};
    for (const char* n : {"native_layer_norm_backward", "_fused_rms_norm_backward", "native_group_norm_backward"})
      m[n] = {Engine::Vector, 2, true};
    m["vector"] = {Engine::Vector, 0, false};  // trn::vector, trn::scalar, trn::gpsimd
    m["scalar"] = {Engine::Scalar, 0, false};
    m["gpsimd"] = {Engine::GpSimd, 0, false};
    return m;
  }();
  return ops;
}

}  // namespace

const std::vector<std::string>& operator_families() {
  static const std::vector<std::string> f = {"matmul", "attention", "norm", "elementwise", "embedding"};
  return f;
}

bool named_operator(const std::string& name, const std::string& shapes, const std::string& types,
                    const std::string& values, NamedOperator* out, std::string* why) {
  const std::string op = bare(name);
  const Operands o = operands(shapes, types, values);
  *out = NamedOperator{};
  out->dtype = o.dtype;
  GraphOp& g = out->op;
  g.name = name;
  g.kernel = op;
  g.layer = 0;  // a transformer block's op (FP8 casts apply to its GEMMs)
  static const std::set<std::string> gemms = {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear"};
  static const std::set<std::string> attn = {"scaled_dot_product_attention", "_scaled_dot_product_flash_attention",
                                             "_scaled_dot_product_flash_attention_backward"};
  if (gemms.count(op)) {
    out->family = "matmul";
    return matmul(op, o, &g, why);
  }
  if (attn.count(op)) {
    out->family = "attention";
    return attention(op, o, &g, why);
  }
  if (op == "embedding") {
    out->family = "embedding";
    if (o.tensors.size() < 2 || o.tensors[0].size() != 2)
      return fail(why, "embedding: expected weight [V, H], indices");
    g.kind = OpKind::Embedding;
    g.tokens = numel(o.tensors[1]);
    g.width = static_cast<double>(o.tensors[0][1]);
    return true;
  }
  auto it = streaming_ops().find(op);
  if (it == streaming_ops().end()) return fail(why, "not an operator trnsim models");
  out->family = it->second.norm ? "norm" : "elementwise";
  if (o.tensors.empty()) return fail(why, op + " has no tensor operand with a shape");
  double elements = 0;
  for (const auto& t : o.tensors) elements = std::max(elements, numel(t));
  g.kind = OpKind::Elementwise;
  g.engine = it->second.engine;
  g.inputs = it->second.inputs ? it->second.inputs : static_cast<int>(o.tensors.size());
  g.tokens = elements;
  g.width = 1;
  g.fusable = false;  // a node of its own reads and writes its operands
  return true;
}

std::string shapes_text(const std::vector<std::vector<int64_t>>& shapes) {
  std::ostringstream s;
  s << '[';
  for (size_t i = 0; i < shapes.size(); ++i) {
    s << (i ? ", [" : "[");
    for (size_t j = 0; j < shapes[i].size(); ++j) s << (j ? ", " : "") << shapes[i][j];
    s << ']';
  }
  s << ']';
  return s.str();
}

}  // namespace trn::app
