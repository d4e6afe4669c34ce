#include "modules/host/gpu_workload.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "modules/common/closest_match.h"
#include "modules/common/config_document.h"
#include "modules/common/config_reader.h"
#include "modules/common/errors.h"
#include "modules/common/json_file.h"
#include "modules/gpu/simt/module_image.h"

namespace ohmvp {

namespace {

// The top-level keys only a kernel workload has: its parser reads them, and without a "type" they
// tell one from memory traffic (is_kernel_workload).
const std::vector<const char*> k_kernel_workload_keys = {
    "ptx",    "generators",           "buffers",           "launches", "outputs",
    "limits", "non_blocking_streams", "stream_priorities", "expected"};

std::string element_path(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a > std::numeric_limits<uint64_t>::max() - b ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

uint64_t saturating_multiply(uint64_t a, uint64_t b) {
  return b != 0 && a > std::numeric_limits<uint64_t>::max() / b
             ? std::numeric_limits<uint64_t>::max()
             : a * b;
}

std::vector<std::string> names_of(const std::vector<BufferSpec>& buffers) {
  std::vector<std::string> names;
  for (const BufferSpec& buffer : buffers) names.push_back(buffer.name);
  return names;
}

class WorkloadParser {
 public:
  WorkloadParser(const nlohmann::json& root, const std::filesystem::path& file,
                 const MemoryRoom& memory)
      : m_document(root, file.string()),
        m_folder(file.parent_path()),
        m_memory_bytes(memory.bytes),
        m_memory_makeup(memory.makeup.empty() ? "" : ": " + memory.makeup) {
    m_workload.file = file;
    m_workload.name = file.stem().string();
  }

  GpuWorkload parse() {
    const ConfigReader root(m_document.json(), "", &m_document);
    // A misspelt key is named before a required one is missed ("outptus" is not "no outputs").
    std::vector<const char*> known = {"name", "description", "type"};
    known.insert(known.end(), k_kernel_workload_keys.begin(), k_kernel_workload_keys.end());
    root.finish(known);
    root.get("name", m_workload.name);
    if (m_workload.name.empty())
      root.fail("name", "is empty; expected the workload's name (or leave it out: the file's)");
    root.get("description", m_workload.description);
    std::string type = "kernel";
    root.get_enum("type", type, {{"kernel", std::string("kernel")}});
    std::string ptx;
    root.get("ptx", ptx);
    if (ptx.empty()) root.fail("ptx", "expected the path of a PTX file");
    m_workload.ptx = resolve(ptx);
    if (!regular_file_exists(m_workload.ptx))
      root.fail("ptx", why_not_a_file(m_workload.ptx) + ": " + m_workload.ptx.string());
    parse_generators(root);
    parse_buffers(root);
    generate(root);
    const nlohmann::json* launches = root.raw("launches");
    if (!launches) root.fail("launches", "expected an array of steps");
    m_workload.steps = parse_steps(root, "launches", *launches);
    check_events_recorded(m_workload.steps);
    parse_outputs(root);
    parse_expected(root);
    parse_limits(root);
    parse_non_blocking_streams(root);
    parse_stream_priorities(root);
    root.finish();
    return std::move(m_workload);
  }

 private:
  std::filesystem::path resolve(const std::string& path) const {
    const std::filesystem::path given(path);
    return given.is_absolute() ? given : (m_folder / given).lexically_normal();
  }

  ConfigReader reader(const nlohmann::json& node, const std::string& path) const {
    return ConfigReader(node, path, &m_document);
  }

  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    throw ConfigError(m_document.origin_of(path) + ": " + path + ": " + problem);
  }

  void parse_limits(const ConfigReader& root) {
    if (!root.has("limits")) return;
    const ConfigReader limits = root.child("limits");
    gpu::DeviceLimits& set = m_workload.limits;
    using L = gpu::DeviceLimits;
    limits.get("stack_bytes", set.stack_bytes, L::min_stack_bytes, L::max_stack_bytes);
    limits.get("malloc_heap_bytes", set.malloc_heap_bytes, L::min_heap_bytes, L::max_heap_bytes);
    limits.get("printf_fifo_bytes", set.printf_fifo_bytes, L::min_printf_bytes,
               L::max_printf_bytes);
    limits.finish();
  }

  void parse_generators(const ConfigReader& root) {
    const ConfigReader generators = root.child("generators");
    const nlohmann::json* all = root.raw("generators");
    if (!all) return;
    for (auto it = all->begin(); it != all->end(); ++it) {
      const ConfigReader g = generators.child(it.key().c_str());
      CsrShape shape;
      std::string kind;
      g.get_enum(
          "kind", kind,
          {{"csr_graph", std::string("csr_graph")}, {"csr_matrix", std::string("csr_matrix")}});
      if (kind.empty()) g.fail("kind", "expected 'csr_graph' or 'csr_matrix'");
      const uint64_t limit = uint64_t{1} << 31;
      const char* rows_key = kind == "csr_graph" ? "nodes" : "rows";
      const char* columns_key = kind == "csr_graph" ? "nodes" : "columns";
      const char* min_key = kind == "csr_graph" ? "min_degree" : "min_nonzeros";
      const char* max_key = kind == "csr_graph" ? "max_degree" : "max_nonzeros";
      g.get(rows_key, shape.rows, uint64_t{1}, limit);
      g.get(columns_key, shape.columns, uint64_t{1}, limit);
      g.get(min_key, shape.min_per_row, uint64_t{0}, limit);
      g.get(max_key, shape.max_per_row, uint64_t{0}, limit);
      if (kind == "csr_graph") {
        shape.allow_diagonal = false;
        g.get("self_loops", shape.allow_diagonal);
        g.get("weight_min", shape.value_min);
        g.get("weight_max", shape.value_max);
      } else {
        g.get("value_min", shape.value_min);
        g.get("value_max", shape.value_max);
      }
      g.get("seed", shape.seed);
      // A misspelt key is named before the checks below, which would call its value missing.
      g.finish();
      for (const char* key : {rows_key, columns_key})
        if (!g.has(key)) g.fail(key, "required");
      if (!g.has("seed")) g.fail("seed", "required (generators are deterministic from it)");
      if (shape.max_per_row < shape.min_per_row)
        g.fail(max_key, std::string("must be at least ") + min_key);
      if (shape.value_max < shape.value_min)
        g.fail(kind == "csr_graph" ? "weight_max" : "value_max", "must not be below the minimum");
      // Generated once the buffers are known, so that an input too large for the memory is
      // refused before it is built.
      m_generators[it.key()] = Generator{kind, shape};
    }
  }

  // Runs the generators, each stopped as soon as its buffers cannot fit in the memory, then gives
  // their buffers their counts. Managed buffers need not fit: the UVM driver oversubscribes.
  void generate(const ConfigReader& root) {
    // Bytes every buffer needs whatever the generators draw, and per generator its buffers'
    // bytes per entry (column index or value).
    uint64_t fewest_bytes = 0;
    std::map<std::string, uint64_t> bytes_per_entry;
    for (const BufferSpec& spec : m_workload.buffers) {
      if (spec.managed) continue;  // in host memory, moved to the GPU page by page
      const bool per_entry =
          spec.init.kind == BufferInit::Kind::generator && spec.init.output != "row_offsets";
      if (!per_entry) {
        fewest_bytes = saturating_add(fewest_bytes, spec.size_bytes());
        continue;
      }
      const Generator& g = m_generators.at(spec.init.generator);
      bytes_per_entry[spec.init.generator] += element_size(spec.type);
      fewest_bytes = saturating_add(
          fewest_bytes, saturating_multiply(fewest_entries(g.shape), element_size(spec.type)));
    }
    check_fits(root, fewest_bytes, m_generators.empty() ? "need " : "need at least ");
    const uint64_t limit = uint64_t{1} << 31;
    for (const auto& [name, g] : m_generators) {
      const bool used = std::any_of(
          m_workload.buffers.begin(), m_workload.buffers.end(), [&](const BufferSpec& b) {
            return b.init.kind == BufferInit::Kind::generator && b.init.generator == name;
          });
      if (!used) continue;  // it would fill nothing
      const uint64_t per_entry = bytes_per_entry[name];
      const uint64_t fewest = saturating_multiply(fewest_entries(g.shape), per_entry);
      // Room for this generator's entries with every other buffer at its fewest bytes.
      const uint64_t room = m_memory_bytes - (fewest_bytes - fewest);
      const uint64_t max_entries = per_entry == 0 ? limit : std::min(limit, room / per_entry);
      const std::string path = "generators." + name;
      std::optional<GeneratedCsr> csr;
      if (fewest_entries(g.shape) <= limit && !surely_more_entries_than(g.shape, max_entries))
        csr = generate_csr(g.shape, max_entries);
      if (!csr && max_entries == limit)
        fail(path, "generates more than 2^31 entries; at most 2^31 are supported");
      if (!csr)
        fail(path,
             "generates more entries than fit: with the other buffers they would need "
             "more than the " +
                 std::to_string(m_memory_bytes) + " bytes the memory holds" + m_memory_makeup);
      fewest_bytes = saturating_add(fewest_bytes - fewest,
                                    saturating_multiply(csr->column_indices.size(), per_entry));
      m_workload.generated[name] = std::move(*csr);
    }
    for (BufferSpec& spec : m_workload.buffers) {
      if (spec.init.kind != BufferInit::Kind::generator) continue;
      const uint64_t produced = generated_count(spec.init);
      check_generated_count(spec, produced);
      if (produced == 0)
        fail("buffers." + spec.name + ".init", "the generator produces no elements");
      spec.count = produced;
    }
    check_fits(root, fewest_bytes, "need ");
  }

  // A buffer's count, when given (not 0), must be what its generator produces.
  void check_generated_count(const BufferSpec& spec, uint64_t produced) const {
    if (spec.count != 0 && spec.count != produced)
      fail("buffers." + spec.name + ".count",
           "is " + std::to_string(spec.count) + " but generator '" + spec.init.generator +
               "' produces " + std::to_string(produced) + " elements for '" + spec.init.output +
               "'; omit count or match it");
  }

  void check_fits(const ConfigReader& root, uint64_t bytes, const std::string& need) const {
    if (bytes > m_memory_bytes)
      root.fail("buffers", need + std::to_string(bytes) + " bytes but the memory holds " +
                               std::to_string(m_memory_bytes) + m_memory_makeup);
  }

  void parse_buffers(const ConfigReader& root) {
    const nlohmann::json* all = root.raw("buffers");
    if (!all || !all->is_object() || all->empty())
      root.fail("buffers", "expected an object of named buffers");
    const ConfigReader buffers = root.child("buffers");
    for (auto it = all->begin(); it != all->end(); ++it) {
      const ConfigReader b = buffers.child(it.key().c_str());
      // A buffer's name is also its --dump file's: letters, digits, '_', '-' and '.', not first.
      const std::string& name = it.key();
      const bool plain =
          !name.empty() && name.size() <= 128 && name[0] != '.' &&
          std::all_of(name.begin(), name.end(), [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
          });
      if (!plain)
        root.fail("buffers", "buffer name '" + excerpt(name) +
                                 "': expected 1 to 128 letters, digits, '_', '-' or '.', not "
                                 "beginning with '.'");
      BufferSpec spec;
      spec.name = it.key();
      b.finish(
          {"type", "count", "init", "symbol", "managed", "copy_in"});  // "cnt" is not "no count"
      if (!b.has("type"))
        b.fail("type", "required: one of u8 u16 u32 u64 s8 s16 s32 s64 f16 f32 f64");
      b.get_enum("type", spec.type, element_type_names());
      const bool has_count = b.has("count");
      b.get("count", spec.count, uint64_t{1}, uint64_t{1} << 34);
      parse_init(b, "init", spec, spec.init);
      if (b.has("symbol")) {
        b.get("symbol", spec.symbol);
        if (spec.symbol.empty())
          b.fail("symbol",
                 "expected the name of a module-scope __device__ or __constant__ "
                 "variable");
        if (!b.has("init")) spec.init.kind = BufferInit::Kind::variable;
      }
      b.get("managed", spec.managed);
      if (spec.managed && !spec.symbol.empty())
        b.fail("managed", "a buffer that is a module variable (\"symbol\") cannot be managed");
      b.get("copy_in", spec.copy_in);
      if (!spec.copy_in && (spec.managed || !spec.symbol.empty()))
        b.fail("copy_in", std::string("is false, but the buffer ") +
                              (spec.managed ? "is managed (\"managed\": true)"
                                            : "is a module variable (\"symbol\")") +
                              "; only an allocation of device memory of its own starts empty");
      if (spec.init.kind == BufferInit::Kind::generator) {
        // The count comes from the generator (generate(), below); a count given must match it.
        if (spec.init.output == "row_offsets") {
          const uint64_t produced = m_generators.at(spec.init.generator).shape.rows + 1;
          check_generated_count(spec, produced);
          spec.count = produced;
        }
      } else if (!has_count) {
        b.fail("count", "required: the number of elements");
      }
      check_init_file(b, "init", spec.init, spec.size_bytes());
      b.finish();
      m_workload.buffers.push_back(std::move(spec));
    }
  }

  // A file init (`key`.file) must be a regular file of exactly `bytes`.
  void check_init_file(const ConfigReader& b, const std::string& key, const BufferInit& init,
                       uint64_t bytes) const {
    if (init.kind != BufferInit::Kind::file) return;
    const std::string at = key + ".file";
    // A FIFO or a device would block or never end: only regular files.
    if (const auto why = why_not_regular(init.file))
      b.fail(at, "cannot read " + init.file.string() + ": " + *why);
    std::error_code error;
    const uintmax_t size = std::filesystem::file_size(init.file, error);
    if (error) b.fail(at, "cannot read " + init.file.string() + ": " + error.message());
    if (size != bytes)
      b.fail(at, init.file.string() + " holds " + std::to_string(size) +
                     " bytes; the buffer needs exactly " + std::to_string(bytes));
  }

  uint64_t generated_count(const BufferInit& init) const {
    const GeneratedCsr& csr = m_workload.generated.at(init.generator);
    if (init.output == "row_offsets") return csr.row_offsets.size();
    return csr.column_indices.size();
  }

  // `b`'s `key` ("init", or an expected output's "values") into `out`, for elements of `spec`.
  void parse_init(const ConfigReader& b, const char* key_name, const BufferSpec& spec,
                  BufferInit& out) {
    const nlohmann::json* init = b.raw(key_name);
    if (!init) return;  // zero
    const std::string path = b.path() + "." + key_name;
    // A generator makes inputs: an expected output's contents take any other form.
    const bool generators = std::string_view(key_name) == "init";
    const std::string expected =
        std::string(
            "expected \"zero\" or an object with one of 'value', 'random', 'sequence', "
            "'file'") +
        (generators ? ", 'generator'" : "");
    if (init->is_string()) {
      if (*init != "zero") fail(path, std::string(expected) + ", got " + init->dump());
      return;
    }
    if (!init->is_object() || init->size() != 1) fail(path, expected);
    const ConfigReader r = reader(*init, path);
    const std::string key = init->begin().key();
    if (key == "value") {
      out.kind = BufferInit::Kind::value;
      out.value_bits = scalar_bits(r, "value", spec.type);
    } else if (key == "random") {
      out.kind = BufferInit::Kind::random;
      const ConfigReader random = r.child("random");
      if (!random.has("seed")) random.fail("seed", "required");
      random.get("seed", out.seed);
      if (!random.has("min") || !random.has("max"))
        random.fail("min", "'min' and 'max' are required");
      if (is_float_type(spec.type)) {
        random.get("min", out.real_min);
        random.get("max", out.real_max);
        scalar_bits(random, "min", spec.type);  // refuses a bound beyond the type
        scalar_bits(random, "max", spec.type);
        if (out.real_max < out.real_min) random.fail("max", "must not be below min");
      } else {
        out.int_min = scalar_bits(random, "min", spec.type);
        out.int_max = scalar_bits(random, "max", spec.type);
        const bool below = is_signed_type(spec.type)
                               ? element_bits_to_double(spec.type, out.int_max) <
                                     element_bits_to_double(spec.type, out.int_min)
                               : out.int_max < out.int_min;
        if (below) random.fail("max", "must not be below min");
        if (is_signed_type(spec.type)) {
          // Keep the sign-extended 64-bit form so that max - min spans correctly.
          out.int_min = static_cast<uint64_t>(random.raw("min")->get<int64_t>());
          out.int_max = static_cast<uint64_t>(random.raw("max")->get<int64_t>());
        }
      }
      random.finish();
    } else if (key == "sequence") {
      out.kind = BufferInit::Kind::sequence;
      const ConfigReader sequence = r.child("sequence");
      sequence.get("start", out.start);
      out.step = 1;
      sequence.get("step", out.step);
      sequence.finish();
      // Integers wrap; floats must stay finite from the first element to the last.
      // The first element is the start's; the last, when only it overflows, the step's.
      const double last = out.start + double(spec.count == 0 ? 0 : spec.count - 1) * out.step;
      for (const auto& [value, key] : {std::pair{out.start, "start"}, std::pair{last, "step"}})
        if (!std::isfinite(value) ||
            (is_float_type(spec.type) && becomes_infinite(spec.type, value)))
          sequence.fail(key, "the sequence reaches " + nlohmann::json(value).dump() +
                                 ", beyond the range of " + element_type_name(spec.type));
    } else if (key == "file") {
      out.kind = BufferInit::Kind::file;
      std::string file;
      r.get("file", file);
      out.file = resolve(file);
    } else if (key == "generator") {
      if (!generators)
        fail(path,
             "a generator makes inputs; expected contents are \"zero\", 'value', 'random', "
             "'sequence' or 'file'");
      out.kind = BufferInit::Kind::generator;
      const ConfigReader g = r.child("generator");
      g.get("name", out.generator);
      g.get("output", out.output);
      g.finish();
      if (!g.has("name")) g.fail("name", "required: the name of a generator in 'generators'");
      if (!g.has("output")) g.fail("output", "required: which of the generator's outputs");
      if (m_generators.count(out.generator) == 0) {
        std::vector<std::string> known;
        for (const auto& entry : m_generators) known.push_back(entry.first);
        g.fail("name", "no generator named '" + out.generator + "' in 'generators'" +
                           did_you_mean(out.generator, known));
      }
      const std::string values =
          m_generators.at(out.generator).kind == "csr_graph" ? "weights" : "values";
      const std::vector<std::string> outputs = {"row_offsets", "column_indices", values};
      if (std::find(outputs.begin(), outputs.end(), out.output) == outputs.end())
        g.fail("output", "expected 'row_offsets', 'column_indices' or '" + values + "', got '" +
                             out.output + "'" + did_you_mean(out.output, outputs));
      if (out.output != values && is_float_type(spec.type))
        b.fail("type",
               "'" + out.output + "' needs an integer type, got " + element_type_name(spec.type));
      if (out.output == values) check_generated_values(g, out.generator, values, spec.type);
    } else {
      fail(path, std::string(expected) + "; unknown key '" + key + "'" +
                     did_you_mean(key, {"value", "random", "sequence", "file", "generator"}));
    }
    r.finish();
  }

  static std::string did_you_mean(const std::string& word, const std::vector<std::string>& known) {
    const std::string suggestion = closest_match(word, known);
    return suggestion.empty() ? "" : "; did you mean '" + suggestion + "'?";
  }

  static bool becomes_infinite(ElementType type, double value) {
    return std::isinf(element_bits_to_double(type, element_bits_from_double(type, value)));
  }

  // A generator's values are drawn in [min, max): the type must hold every one.
  void check_generated_values(const ConfigReader& g, const std::string& name,
                              const std::string& output, ElementType type) const {
    const CsrShape& shape = m_generators.at(name).shape;
    const auto [lowest, highest] = element_range(type);
    const bool fits =
        is_float_type(type)
            ? !becomes_infinite(type, shape.value_min) && !becomes_infinite(type, shape.value_max)
            : shape.value_min >= lowest && shape.value_max <= highest + 1;
    if (!fits)
      g.fail("name", "generator '" + name + "' draws " + output + " in [" +
                         number_text(shape.value_min) + ", " + number_text(shape.value_max) +
                         "), beyond the range of " + element_type_name(type));
  }

  // A number of `type` under `key`, range-checked, as the element's bit pattern.
  uint64_t scalar_bits(const ConfigReader& r, const char* key, ElementType type) const {
    // The range check is the reader's, for the element's C++ type.
    const auto read = [&](auto value) {
      r.get(key, value);
      return value;
    };
    switch (type) {
      case ElementType::u8:
        return read(uint8_t{0});
      case ElementType::u16:
        return read(uint16_t{0});
      case ElementType::u32:
        return read(uint32_t{0});
      case ElementType::u64:
        return read(uint64_t{0});
      case ElementType::s8:
        return element_bits_from_integer(type, read(int8_t{0}));
      case ElementType::s16:
        return element_bits_from_integer(type, read(int16_t{0}));
      case ElementType::s32:
        return element_bits_from_integer(type, read(int32_t{0}));
      case ElementType::s64:
        return element_bits_from_integer(type, read(int64_t{0}));
      default: {
        double v = 0;
        r.get(key, v);
        const uint64_t bits = element_bits_from_double(type, v);
        // JSON has no infinity: a value that becomes one did not fit the type.
        if (std::isinf(element_bits_to_double(type, bits)))
          r.fail(key, "value " + nlohmann::json(v).dump() + " is beyond the range of " +
                          element_type_name(type));
        return bits;
      }
    }
  }

  const BufferSpec& buffer_named(const std::string& path, const std::string& name) const {
    if (const BufferSpec* found = m_workload.find_buffer(name)) return *found;
    if (name.empty()) fail(path, "required: the name of a buffer");
    fail(path, "no buffer named '" + name + "'" + did_you_mean(name, names_of(m_workload.buffers)));
  }

  // The managed buffer `step`'s "buffer" names, into `name`; `what` says what the call does with
  // managed memory, for the refusal of one that is not.
  void managed_buffer(const ConfigReader& step, std::string& name, const char* what) const {
    step.get("buffer", name);
    if (!buffer_named(step.path() + ".buffer", name).managed)
      step.fail("buffer",
                "'" + name + "' is not managed; " + what + " managed memory (\"managed\": true)");
  }

  std::vector<WorkloadStep> parse_steps(const ConfigReader& parent, const char* key,
                                        const nlohmann::json& list) {
    const std::string path = parent.path().empty() ? key : parent.path() + "." + key;
    if (!list.is_array() || list.empty()) fail(path, "expected a non-empty array of steps");
    std::vector<WorkloadStep> steps;
    for (size_t i = 0; i < list.size(); ++i)
      steps.push_back(parse_step(list[i], element_path(path, i)));
    return steps;
  }

  WorkloadStep parse_step(const nlohmann::json& node, const std::string& path) {
    const ConfigReader r = reader(node, path);
    WorkloadStep step;
    step.path = path;
    const char* kinds[] = {"kernel",   "repeat",    "repeat_until_zero", "copy",    "fill",
                           "prefetch", "advise",    "to_device",         "to_host", "synchronize",
                           "record",   "wait_event"};
    int found = -1;
    for (int k = 0; k < 12; ++k)
      if (node.contains(kinds[k])) {
        if (found >= 0)
          fail(path, std::string("has both '") + kinds[found] + "' and '" + kinds[k] +
                         "'; a step is one launch or one control step");
        found = k;
      }
    if (found < 0) {
      std::string hint;  // a step of one key is most likely a misspelt control step
      if (node.is_object() && node.size() == 1)
        hint = did_you_mean(node.begin().key(), {std::begin(kinds), std::end(kinds)});
      fail(path,
           "expected a launch (with 'kernel') or one of 'repeat', 'repeat_until_zero', "
           "'copy', 'fill', 'prefetch', 'advise', 'to_device', 'to_host', 'synchronize', "
           "'record', 'wait_event'" +
               hint);
    }
    // to_device, to_host, synchronize, record, wait_event; copy, fill and prefetch (asynchronous
    // with one)
    const bool takes_stream = found >= 7 || (found >= 3 && found <= 5);
    if (found > 0 && node.contains("stream"))
      fail(path + ".stream", takes_stream ? std::string("goes inside '") + kinds[found] + "'"
                                          : synchronous_step(kinds[found]));
    if (found > 0 && !takes_stream) {
      const nlohmann::json& body = node.at(kinds[found]);
      if (body.is_object() && body.contains("stream"))
        fail(path + "." + kinds[found] + ".stream", synchronous_step(kinds[found]));
    }
    if (found == 0) {
      step.kind = WorkloadStep::Kind::launch;
      step.launch = parse_launch(r);
    } else if (found == 1) {
      step.kind = WorkloadStep::Kind::repeat;
      const ConfigReader repeat = r.child("repeat");
      repeat.finish({"count", "index", "steps"});
      if (!repeat.has("count")) repeat.fail("count", "required");
      repeat.get("count", step.count, uint64_t{1}, uint64_t{1} << 32);
      repeat.get("index", step.index_name);
      if (repeat.has("index") && step.index_name.empty())
        repeat.fail("index", "is empty; expected the loop counter's name (or leave it out)");
      if (m_loops.encloses(step.index_name))
        repeat.fail("index", "'" + step.index_name + "' already names an enclosing loop's counter");
      m_loops.enter(step.index_name, step.count);
      step.steps = parse_nested(repeat);
      m_loops.leave();
      repeat.finish();
    } else if (found == 2) {
      step.kind = WorkloadStep::Kind::repeat_until_zero;
      const ConfigReader until = r.child("repeat_until_zero");
      until.finish({"buffer", "element", "max_iterations", "steps"});
      std::string name;
      until.get("buffer", name);
      const BufferSpec& watched = buffer_named(until.path() + ".buffer", name);
      step.buffer = name;
      until.get("element", step.element, uint64_t{0}, watched.count - 1);
      if (!until.has("max_iterations"))
        until.fail("max_iterations", "required: a bound on the loop");
      until.get("max_iterations", step.max_iterations, uint64_t{1}, uint64_t{1} << 32);
      m_loops.enter("", step.max_iterations);
      step.steps = parse_nested(until);
      m_loops.leave();
      until.finish();
    } else if (found == 3) {
      step.kind = WorkloadStep::Kind::copy;
      const ConfigReader copy = r.child("copy");
      copy.finish({"from", "to", "stream"});
      std::string from, to;
      copy.get("from", from);
      copy.get("to", to);
      const BufferSpec& source = buffer_named(copy.path() + ".from", from);
      const BufferSpec& target = buffer_named(copy.path() + ".to", to);
      if (source.size_bytes() != target.size_bytes())
        copy.fail("to", "'" + to + "' holds " + std::to_string(target.size_bytes()) +
                            " bytes but '" + from + "' holds " +
                            std::to_string(source.size_bytes()));
      if (copy.has("stream")) {
        step.stream = parse_stream(copy);
        if (from == to)
          copy.fail("to",
                    "is 'from' too; an asynchronous copy's source and destination may "
                    "not overlap");
        if (!source.symbol.empty() && source.symbol == target.symbol)
          copy.fail("to", "'" + to + "' and '" + from + "' are both the variable '" +
                              source.symbol +
                              "'; an asynchronous copy's source and destination may not overlap");
      }
      step.buffer = from;
      step.destination = to;
      copy.finish();
    } else if (found == 7 || found == 8) {
      parse_transfer(r, kinds[found], step);
    } else if (found == 9) {
      step.kind = WorkloadStep::Kind::synchronize;
      const ConfigReader sync = r.child("synchronize");
      sync.finish({"stream", "event"});
      if (sync.has("stream") && sync.has("event"))
        sync.fail("event",
                  "is given with 'stream'; synchronize with one stream, one event, or "
                  "(with neither) the device");
      if (sync.has("stream")) step.stream = parse_stream(sync);
      if (sync.has("event")) step.event = parse_event(sync);
    } else if (found == 10 || found == 11) {
      step.kind = found == 10 ? WorkloadStep::Kind::record_event : WorkloadStep::Kind::wait_event;
      const ConfigReader body = r.child(kinds[found]);
      body.finish({"event", "stream"});
      if (!body.has("event")) body.fail("event", "required: the event's name");
      step.event = parse_event(body);
      step.stream = parse_stream(body);
      if (step.kind == WorkloadStep::Kind::record_event) m_recorded_events.insert(step.event);
    } else if (found == 5) {
      step.kind = WorkloadStep::Kind::prefetch;
      const ConfigReader prefetch = r.child("prefetch");
      prefetch.finish({"buffer", "to", "stream"});
      managed_buffer(prefetch, step.buffer, "cudaMemPrefetchAsync moves");
      std::string to = "gpu";
      prefetch.get("to", to);
      if (to != "gpu" && to != "host")
        prefetch.fail("to", "is '" + to + "'; expected 'gpu' or 'host'");
      step.to_host = to == "host";
      if (prefetch.has("stream")) step.stream = parse_stream(prefetch);
      prefetch.finish();
    } else if (found == 6) {
      step.kind = WorkloadStep::Kind::advise;
      const ConfigReader advise = r.child("advise");
      advise.finish({"buffer", "advice"});
      managed_buffer(advise, step.buffer, "cudaMemAdvise advises");
      if (!advise.has("advice"))
        advise.fail("advice",
                    "required: 'read_mostly', 'preferred_location_host', 'accessed_by' or "
                    "an unset_ one");
      advise.get_enum("advice", step.advice,
                      {{"read_mostly", ManagedAdvice::set_read_mostly},
                       {"unset_read_mostly", ManagedAdvice::unset_read_mostly},
                       {"preferred_location_host", ManagedAdvice::set_preferred_location_host},
                       {"unset_preferred_location", ManagedAdvice::unset_preferred_location},
                       {"accessed_by", ManagedAdvice::set_accessed_by},
                       {"unset_accessed_by", ManagedAdvice::unset_accessed_by}});
      advise.finish();
    } else {
      step.kind = WorkloadStep::Kind::fill;
      const ConfigReader fill = r.child("fill");
      fill.finish({"buffer", "value", "stream"});
      fill.get("buffer", step.buffer);
      const BufferSpec& target = buffer_named(fill.path() + ".buffer", step.buffer);
      if (!fill.has("value")) fill.fail("value", "required");
      step.fill_bits = scalar_bits(fill, "value", target.type);
      if (fill.has("stream")) {
        step.stream = parse_stream(fill);
        if (!memset_element(step.fill_bits, element_size(target.type)))
          fill.fail("value",
                    "is an 8-byte value whose two halves differ; a fill on a stream is "
                    "cuMemsetD8/D16/D32Async, which repeats 1, 2 or 4 bytes (leave out "
                    "'stream' for a synchronous fill)");
      }
      fill.finish();
    }
    r.finish();
    return step;
  }

  static std::string synchronous_step(const std::string& kind) {
    if (kind.rfind("repeat", 0) == 0)
      return "'" + kind + "' takes no stream: the steps inside it name theirs";
    return "'" + kind +
           "' steps are synchronous calls on stream 0; only launches, copy, fill, "
           "prefetch, to_device and to_host take a stream";
  }

  // A to_device or to_host step: the buffer's elements [first, first + count), on a stream.
  void parse_transfer(const ConfigReader& r, const char* key, WorkloadStep& step) {
    const bool to_device = std::string(key) == "to_device";
    step.kind = to_device ? WorkloadStep::Kind::to_device : WorkloadStep::Kind::to_host;
    const ConfigReader copy = r.child(key);
    copy.finish({"buffer", "first", "count", "stream"});
    copy.get("buffer", step.buffer);
    const BufferSpec& buffer = buffer_named(copy.path() + ".buffer", step.buffer);
    if (to_device && buffer.init.kind == BufferInit::Kind::variable)
      copy.fail("buffer", "'" + step.buffer +
                              "' has no host contents to copy: it keeps its variable's initial "
                              "value (give it an \"init\")");
    const int64_t elements = static_cast<int64_t>(buffer.count);
    step.first = m_loops.parse(copy, "first", 0, elements - 1, 0);
    if (step.first.loop.empty()) {
      step.elements = m_loops.parse(copy, "count", 1, elements - step.first.literal,
                                    elements - step.first.literal);
    } else if (!copy.has("count")) {  // the rest of the buffer from each turn's first
      step.elements = {0, step.first.loop, -step.first.times, elements - step.first.plus};
    } else {
      step.elements = m_loops.parse(copy, "count", 1, elements, 0);
      const LoopScope::Wide last = m_loops.greatest_sum(step.first, step.elements);
      if (last > elements)
        copy.fail("count", "reaches element " + LoopScope::text(last) +
                               " (first + count) on a turn of its loop; buffer '" + step.buffer +
                               "' holds " + std::to_string(elements));
    }
    step.stream = parse_stream(copy);
    copy.finish();
  }

  std::string parse_event(const ConfigReader& r) const {
    std::string name;
    r.get("event", name);
    if (name.empty()) r.fail("event", "is empty; expected the event's name");
    return name;
  }

  // Every event a step waits for or synchronises with is one a record step records (anywhere:
  // a loop may record it after its first wait, which then waits for nothing, as in CUDA).
  void check_events_recorded(const std::vector<WorkloadStep>& steps) const {
    for (const WorkloadStep& step : steps) {
      check_events_recorded(step.steps);
      if (!step.event.empty() && m_recorded_events.count(step.event) == 0)
        fail(step.path + (step.kind == WorkloadStep::Kind::wait_event ? ".wait_event.event"
                                                                      : ".synchronize.event"),
             "no record step records event '" + step.event + "'");
    }
  }

  StepNumber parse_stream(const ConfigReader& r) const {
    return m_loops.parse(r, "stream", 0, max_workload_stream, 0);
  }

  std::vector<WorkloadStep> parse_nested(const ConfigReader& r) {
    const nlohmann::json* steps = r.raw("steps");
    if (!steps) r.fail("steps", "expected an array of steps");
    return parse_steps(r, "steps", *steps);
  }

  std::array<uint32_t, 3> parse_dims(const ConfigReader& r, const char* key) const {
    const nlohmann::json* dims = r.raw(key);
    const std::string path = r.path() + "." + key;
    if (!dims) fail(path, "required: [x, y, z] (y and z may be left out)");
    if (!dims->is_array() || dims->empty() || dims->size() > 3)
      fail(path, "expected an array of 1 to 3 positive integers");
    std::array<uint32_t, 3> result{1, 1, 1};
    for (size_t i = 0; i < dims->size(); ++i) {
      const nlohmann::json& v = (*dims)[i];
      if (!v.is_number_unsigned() || v.get<uint64_t>() == 0 ||
          v.get<uint64_t>() > std::numeric_limits<uint32_t>::max())
        fail(element_path(path, i), "expected a positive 32-bit integer, got " + v.dump());
      result[i] = v.get<uint32_t>();
    }
    return result;
  }

  KernelLaunch parse_launch(const ConfigReader& r) {
    KernelLaunch launch;
    launch.path = r.path();
    r.get("kernel", launch.kernel);
    if (launch.kernel.empty()) r.fail("kernel", "expected a kernel name");
    launch.grid = parse_dims(r, "grid");
    launch.block = parse_dims(r, "block");
    const uint64_t threads = uint64_t{launch.block[0]} * launch.block[1] * launch.block[2];
    if (threads > 1024)
      r.fail("block", "has " + std::to_string(threads) + " threads; at most 1024");
    if (launch.block[2] > 64) r.fail("block", "z is at most 64");
    if (launch.grid[0] > 2147483647) r.fail("grid", "x is at most 2^31 - 1 (2147483647)");
    if (launch.grid[1] > 65535 || launch.grid[2] > 65535)
      r.fail("grid", "y and z are at most 65535");
    r.get("shared_bytes", launch.shared_bytes, 0u, 1u << 20);
    r.get("cooperative", launch.cooperative);
    r.get("registers_per_thread", launch.registers_per_thread, 1u, 255u);
    launch.stream = parse_stream(r);
    if (const nlohmann::json* priority = r.raw("priority"))
      launch.priority = parse_priority(*priority, r.path() + ".priority");
    const nlohmann::json* args = r.raw("args");
    const std::string path = r.path() + ".args";
    if (!args) fail(path, "required: the kernel's arguments in order (may be [])");
    if (!args->is_array()) fail(path, "expected an array");
    for (size_t i = 0; i < args->size(); ++i)
      launch.args.push_back(parse_arg((*args)[i], element_path(path, i)));
    return launch;
  }

  KernelArg parse_arg(const nlohmann::json& node, const std::string& path) {
    const char* expected =
        "expected one of {\"buffer\": name} (with \"offset\": elements), {TYPE: value} (TYPE "
        "one of u8 u16 u32 u64 s8 s16 s32 s64 f16 f32 f64), {\"texture\": {...}}, "
        "{\"surface\": {...}}, {\"struct\": [fields]}";
    const auto pair_of = [&node](const char* first, const char* second) {
      return node.is_object() && node.size() == 2 && node.contains(first) && node.contains(second);
    };
    const bool offset_pointer = pair_of("buffer", "offset");
    const bool aligned_struct = pair_of("struct", "align");
    if (!node.is_object() || (node.size() != 1 && !offset_pointer && !aligned_struct))
      fail(path, expected);
    const ConfigReader r = reader(node, path);
    const std::string key = offset_pointer   ? "buffer"
                            : aligned_struct ? "struct"
                                             : node.begin().key();
    KernelArg arg;
    if (key == "buffer") {
      arg.kind = KernelArg::Kind::buffer;
      r.get("buffer", arg.buffer);
      const BufferSpec& buffer = buffer_named(path + ".buffer", arg.buffer);
      arg.offset = m_loops.parse(r, "offset", 0, static_cast<int64_t>(buffer.count), 0);
    } else if (key == "texture" || key == "surface") {
      arg.kind = KernelArg::Kind::texture;
      arg.texture = parse_texture(r.child(key.c_str()), key == "surface");
    } else if (key == "struct") {
      arg.kind = KernelArg::Kind::structure;
      const nlohmann::json& fields = *r.raw("struct");
      const std::string fields_path = path + ".struct";
      if (!fields.is_array())
        fail(fields_path, "expected an array of fields, e.g. [{\"buffer\": \"x\"}, {\"s32\": 64}]");
      for (size_t i = 0; i < fields.size(); ++i) {
        KernelArg field = parse_arg(fields[i], element_path(fields_path, i));
        if (field.kind == KernelArg::Kind::texture)
          fail(element_path(fields_path, i),
               "a struct field must be a buffer (a device pointer), a scalar (u8 u16 u32 u64 s8 "
               "s16 s32 s64 f16 f32 f64) or a struct");
        arg.fields.push_back(std::move(field));
      }
      r.get("align", arg.align, uint32_t{1}, KernelArg::max_struct_align);
      if ((arg.align & (arg.align - 1)) != 0)
        r.fail("align",
               "expected a power of two (the N of __align__(N)), got " + std::to_string(arg.align));
    } else {
      bool known = false;
      std::vector<std::string> keys = {"buffer", "texture", "surface", "struct"};
      for (const auto& entry : element_type_names()) {
        keys.push_back(entry.first);
        if (entry.first == key) {
          arg.scalar_type = entry.second;
          known = true;
        }
      }
      if (!known)
        fail(path, std::string(expected) + "; unknown key '" + key + "'" + did_you_mean(key, keys));
      arg.kind = KernelArg::Kind::scalar;
      const nlohmann::json& value = node.begin().value();
      if (value.is_object()) {
        parse_scalar_source(r, key.c_str(), arg);
      } else {
        arg.bits = scalar_bits(r, key.c_str(), arg.scalar_type);
      }
    }
    r.finish();
    return arg;
  }

  // The scalar argument parent[key], an object: a count or a loop's counter.
  void parse_scalar_source(const ConfigReader& parent, const char* key, KernelArg& arg) {
    const ConfigReader r = parent.child(key);
    if (is_float_type(arg.scalar_type))
      throw ConfigError(m_document.origin_of(r.path()) + ": " + r.path() +
                        ": 'count_of' and 'loop_index' give integers; use an integer type (u8 to "
                        "u64, s8 to s64)");
    if (r.has("count_of")) {
      arg.source = KernelArg::Source::count_of;
      r.get("count_of", arg.buffer);
      buffer_named(r.path() + ".count_of", arg.buffer);
    } else if (r.has("loop_index")) {
      arg.source = KernelArg::Source::loop_index;
      const auto [low, high] = element_range(arg.scalar_type);
      // The type's ends as whole numbers: as doubles u64's 2^64 - 1 is 2^64, s64's 2^63 - 1 is
      // 2^63.
      const auto whole = [](double value) {
        const auto exact = static_cast<LoopScope::Wide>(value);
        return value == 0x1p64 || value == 0x1p63 ? exact - 1 : exact;
      };
      arg.loop_value = m_loops.parse(parent, key, whole(low), whole(high), 0);
      return;
    } else {
      throw ConfigError(m_document.origin_of(r.path()) + ": " + r.path() +
                        ": expected a number, {\"count_of\": buffer} or {\"loop_index\": name}");
    }
    r.finish();
  }

  // A texture, or a surface (no sampling settings; 64-bit elements too).
  TextureBinding parse_texture(const ConfigReader& r, bool surface) {
    TextureBinding t;
    t.surface = surface;
    const char* kind = surface ? "surface" : "texture";
    r.get("buffer", t.buffer);
    const BufferSpec& buffer = buffer_named(r.path() + ".buffer", t.buffer);
    if (!surface && (buffer.type == ElementType::u64 || buffer.type == ElementType::s64 ||
                     buffer.type == ElementType::f64))
      r.fail("buffer", "buffer '" + t.buffer + "' holds " + element_type_name(buffer.type) +
                           "; textures hold f32, s32, u32, f16, s16, u16, s8 or u8");
    if (!r.has("width"))
      r.fail("width", std::string("required: ") + (surface ? "elements" : "texels") + " per row");
    r.get("width", t.width, uint64_t{1}, uint64_t{1} << 27);
    if (r.has("height")) {
      t.dimensions = 2;
      r.get("height", t.height, uint64_t{1}, uint64_t{65536});
    }
    if (r.has("depth")) {
      if (!r.has("height")) r.fail("depth", std::string("a 3-D ") + kind + " needs a height too");
      t.dimensions = 3;
      r.get("depth", t.depth, uint64_t{1}, uint64_t{16384});
    }
    r.get("layers", t.layers, uint64_t{1}, uint64_t{2048});
    if (r.has("layers") && t.dimensions == 3)
      r.fail("layers", std::string("a layered ") + kind + " is 1-D or 2-D; drop \"depth\"");
    r.get("cubemap", t.cubemap);
    if (t.cubemap && (t.dimensions != 2 || t.height != t.width))
      r.fail("cubemap",
             std::string("a cubemap ") + kind +
                 "'s faces are square: give \"height\" equal to \"width\", no \"depth\"");
    r.get("channels", t.channels, 1u, 4u);
    if (!surface) {
      r.get_enum("filter", t.filter,
                 {{"point", TextureFilter::point}, {"linear", TextureFilter::linear}});
      r.get_enum("address", t.address,
                 {{"clamp", TextureAddress::clamp},
                  {"wrap", TextureAddress::wrap},
                  {"mirror", TextureAddress::mirror},
                  {"border", TextureAddress::border}});
      r.get("normalized", t.normalized);
      r.get_enum("read_mode", t.normalized_read, {{"element", false}, {"normalized_float", true}});
    }
    const bool narrow_integer = buffer.type == ElementType::u8 || buffer.type == ElementType::s8 ||
                                buffer.type == ElementType::u16 || buffer.type == ElementType::s16;
    if (t.normalized_read && !narrow_integer)
      r.fail("read_mode", "normalized_float reads 8- and 16-bit integer texels; buffer '" +
                              t.buffer + "' holds " + element_type_name(buffer.type));
    if (t.channels == 3)
      r.fail("channels", std::string("3-channel ") + kind + "s do not exist; expected 1, 2 or 4");
    r.finish();
    const uint64_t slices = (t.cubemap ? 6 : 1) * (t.layers ? t.layers : 1);
    if (t.width * t.height * t.depth * slices * t.channels > buffer.count)
      r.fail("width", std::to_string(t.width) + " x " + std::to_string(t.height) +
                          (t.dimensions == 3 ? " x " + std::to_string(t.depth) : "") +
                          (slices > 1 ? " x " + std::to_string(slices) : "") + " texels of " +
                          std::to_string(t.channels) + " elements exceed buffer '" + t.buffer +
                          "' (" + std::to_string(buffer.count) + " elements)");
    return t;
  }

  void parse_non_blocking_streams(const ConfigReader& root) {
    const nlohmann::json* streams = root.raw("non_blocking_streams");
    if (!streams) return;
    const std::string expected =
        "stream numbers 1 to " + std::to_string(max_workload_stream) + " (0 is the default stream)";
    if (!streams->is_array()) root.fail("non_blocking_streams", "expected an array of " + expected);
    for (size_t i = 0; i < streams->size(); ++i) {
      const std::string path = element_path("non_blocking_streams", i);
      const nlohmann::json& number = (*streams)[i];
      if (!number.is_number_unsigned() || number.get<uint64_t>() == 0 ||
          number.get<uint64_t>() > max_workload_stream)
        fail(path, "expected one of the " + expected + ", got " + number.dump());
      if (!m_workload.non_blocking_streams.insert(number.get<uint32_t>()).second)
        fail(path, "stream " + number.dump() + " is listed twice");
    }
  }

  void parse_stream_priorities(const ConfigReader& root) {
    const nlohmann::json* priorities = root.raw("stream_priorities");
    if (!priorities) return;
    if (!priorities->is_object())
      root.fail("stream_priorities",
                "expected an object from stream numbers to priorities, as {\"1\": -1}");
    for (const auto& [key, value] : priorities->items()) {
      const std::string path = "stream_priorities." + key;
      const bool digits =
          !key.empty() && key.size() <= 4 && key[0] != '0' &&
          std::all_of(key.begin(), key.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!digits || std::stoul(key) > max_workload_stream)
        fail(path, "expected a stream number 1 to " + std::to_string(max_workload_stream) +
                       " as the key (0, the default stream, has the least priority, 0)");
      m_workload.stream_priorities[uint32_t(std::stoul(key))] = parse_priority(value, path);
    }
  }

  // A CUDA stream priority: 0 or a negative integer (the GPU's range is checked before a run).
  int parse_priority(const nlohmann::json& value, const std::string& path) const {
    // JSON's non-negative integers are unsigned: only 0 of them is a priority.
    const bool in_range = value.is_number_unsigned()
                              ? value.get<uint64_t>() == 0
                              : value.is_number_integer() && value.get<int64_t>() <= 0 &&
                                    value.get<int64_t>() >= std::numeric_limits<int>::min();
    if (!in_range)
      fail(path, "expected a stream priority: 0 (the least) or a negative integer (greater), got " +
                     value.dump());
    return value.get<int>();
  }

  void parse_outputs(const ConfigReader& root) {
    const nlohmann::json* outputs = root.raw("outputs");
    if (!outputs || !outputs->is_array() || outputs->empty())
      root.fail("outputs", "expected a non-empty array of buffer names");
    for (size_t i = 0; i < outputs->size(); ++i) {
      const std::string path = element_path("outputs", i);
      const nlohmann::json& name = (*outputs)[i];
      if (!name.is_string()) fail(path, "expected a buffer name, got " + name.dump());
      buffer_named(path, name.get<std::string>());
      const auto& listed = m_workload.outputs;
      if (std::find(listed.begin(), listed.end(), name) != listed.end())
        fail(path, "buffer '" + name.get<std::string>() + "' is listed twice");
      m_workload.outputs.push_back(name.get<std::string>());
    }
  }

  void parse_expected(const ConfigReader& root) {
    const nlohmann::json* all = root.raw("expected");
    if (!all) return;
    if (!all->is_object() || all->empty())
      root.fail("expected", std::string(all->is_object() ? "is empty; expected" : "expected") +
                                " an object: output name -> {\"values\": ..., \"absolute\": a, "
                                "\"relative\": r}");
    const ConfigReader expected = root.child("expected");
    for (auto it = all->begin(); it != all->end(); ++it) {
      const std::string& name = it.key();
      const auto& outputs = m_workload.outputs;
      if (std::find(outputs.begin(), outputs.end(), name) == outputs.end())
        root.fail("expected", "'" + excerpt(name) + "' is not one of the outputs" +
                                  did_you_mean(name, outputs) + " (list it in \"outputs\")");
      const ConfigReader e = expected.child(name.c_str());
      e.finish({"values", "absolute", "relative"});
      if (!e.has("values"))
        e.fail("values", "required: the output's contents, in any form a buffer's init takes");
      const BufferSpec& spec = *m_workload.find_buffer(name);
      ExpectedOutput out;
      out.buffer = name;
      parse_init(e, "values", spec, out.values);
      check_init_file(e, "values", out.values, spec.size_bytes());
      parse_tolerance(e, spec, out);
      e.finish();
      m_workload.expected.push_back(std::move(out));
    }
  }

  // An expected float output's "absolute" and "relative" bounds (none for an integer one).
  void parse_tolerance(const ConfigReader& e, const BufferSpec& spec, ExpectedOutput& out) const {
    for (const auto& [key, bound] :
         {std::pair{"absolute", &out.absolute}, std::pair{"relative", &out.relative}}) {
      if (!e.has(key)) continue;
      if (!is_float_type(spec.type))
        e.fail(key, "a tolerance is for float outputs; '" + spec.name + "' is " +
                        element_type_name(spec.type) + " and must match exactly");
      e.get(key, *bound);
      if (!(*bound >= 0) || std::isinf(*bound))
        e.fail(key, "expected a finite number of at least 0, got " + e.raw(key)->dump());
    }
  }

  ConfigDocument m_document;
  std::filesystem::path m_folder;
  GpuWorkload m_workload;
  struct Generator {
    std::string kind;
    CsrShape shape;
  };
  std::map<std::string, Generator> m_generators;
  uint64_t m_memory_bytes;
  std::string m_memory_makeup;            // ": <what makes up the memory>", or empty
  LoopScope m_loops;                      // the repeat steps around the step being parsed
  std::set<std::string> m_recorded_events;  // the events record steps name
};

}  // namespace

std::vector<RunInput> workload_inputs(const GpuWorkload& workload) {
  std::vector<RunInput> inputs{{"workload", workload.file}, {"ptx", workload.ptx}};
  for (const BufferSpec& buffer : workload.buffers)
    if (buffer.init.kind == BufferInit::Kind::file)
      inputs.push_back({"buffers." + buffer.name, buffer.init.file});
  for (const ExpectedOutput& expected : workload.expected)
    if (expected.values.kind == BufferInit::Kind::file)
      inputs.push_back({"expected." + expected.buffer, expected.values.file});
  return inputs;
}

const BufferSpec* GpuWorkload::find_buffer(const std::string& name) const {
  for (const BufferSpec& buffer : buffers)
    if (buffer.name == name) return &buffer;
  return nullptr;
}

void check_symbol_buffer(const GpuWorkload& workload, const BufferSpec& buffer,
                         const gpu::Module& module) {
  const std::string where = workload.file.string() + ": buffers." + buffer.name + ".symbol: ";
  const gpu::Symbol* variable = gpu::find_variable(module, buffer.symbol);
  if (!variable)
    throw ConfigError(where + module.file + " has no module-scope .global or .const variable '" +
                      buffer.symbol + "'");
  if (buffer.size_bytes() > variable->size)
    throw ConfigError(where + "the buffer's " + std::to_string(buffer.size_bytes()) +
                      " bytes do not fit in '" + buffer.symbol + "' (" +
                      std::to_string(variable->size) + " bytes)");
}

std::string launch_context(const GpuWorkload& workload, const KernelLaunch& launch) {
  return workload.file.string() + ": " + launch.path + ": launch of '" + launch.kernel + "': ";
}

ConfigError launch_error(const GpuWorkload& workload, const KernelLaunch& launch,
                         std::string what) {
  for (const std::string& gpu_context :
       {"launch of kernel '" + launch.kernel + "': ", "launch of '" + launch.kernel + "': "}) {
    if (what.rfind(gpu_context, 0) == 0) {
      what.erase(0, gpu_context.size());
      break;
    }
  }
  return ConfigError(launch_context(workload, launch) + what);
}

std::optional<MemsetElement> memset_element(uint64_t bits, size_t element_bytes) {
  if (element_bytes < 8) return MemsetElement{static_cast<uint32_t>(bits), unsigned(element_bytes)};
  if ((bits >> 32) != (bits & 0xffffffffu)) return std::nullopt;
  return MemsetElement{static_cast<uint32_t>(bits), 4};
}

bool is_kernel_workload(const nlohmann::json& root) {
  if (!root.is_object()) return false;
  const auto type = root.find("type");
  if (type != root.end()) return *type == "kernel";
  // Without a type, a key only kernel workloads have says so: a misspelt "ptx" is then named as
  // such rather than the other keys being unknown to memory traffic.
  return std::any_of(k_kernel_workload_keys.begin(), k_kernel_workload_keys.end(),
                     [&root](const char* key) { return root.contains(key); });
}

GpuWorkload parse_gpu_workload(const nlohmann::json& root, const std::filesystem::path& file,
                               const MemoryRoom& memory) {
  return WorkloadParser(root, file, memory).parse();
}

GpuWorkload load_gpu_workload(const std::filesystem::path& file, const MemoryRoom& memory) {
  return parse_gpu_workload(load_json_file(file), file, memory);
}

}  // namespace ohmvp
