// SPDX-License-Identifier: Apache-2.0
// compareRuns(): both runs' figures read (report/run_figures.h), matched item by item, and
// each figure's change with the spreads that tell it from noise.
#include <algorithm>
#include <array>
#include <cmath>
#include <future>
#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "report/run_figures.h"
#include "trainscope/comparison.h"
#include "trainscope/error.h"
#include "trainscope/report_reading.h"

namespace trainscope {
namespace {

// One side's value of a figure, with its spread over the measured iterations (none for memory,
// and for times of reports that keep none). A default Value is an empty sum: 0, spread 0..0.
struct Value {
    double amount = 0.0;
    std::optional<Spread> spread = Spread{};
    Value& operator+=(const Value& other) {
        amount += other.amount;
        if (spread && other.spread) {
            spread->min_ms += other.spread->min_ms;
            spread->max_ms += other.spread->max_ms;
        } else {
            spread.reset();
        }
        return *this;
    }
};

Value bytes(int64_t size) {
    return {static_cast<double>(size), std::nullopt};
}

FigureChange change(Figure figure, const std::optional<Value>& base,
                    const std::optional<Value>& changed) {
    FigureChange c;
    c.figure = figure;
    if (base) {
        c.base = base->amount;
        c.base_spread = isTime(figure) ? base->spread : std::nullopt;
    }
    if (changed) {
        c.changed = changed->amount;
        c.new_spread = isTime(figure) ? changed->spread : std::nullopt;
    }
    return c;
}

constexpr size_t kFigureCount = static_cast<size_t>(Figure::PeakOther) + 1;

// The figures of one item on one side, by figure (a fixed array: a million operations each
// have a few).
class Figures {
  public:
    Value& operator[](Figure figure) {
        std::optional<Value>& slot = values_[static_cast<size_t>(figure)];
        if (!slot) {
            slot = Value{};
        }
        return *slot;
    }
    const std::optional<Value>& get(Figure figure) const {
        return values_[static_cast<size_t>(figure)];
    }

  private:
    std::array<std::optional<Value>, kFigureCount> values_;
};

std::optional<Value> valueOf(const Figures* figures, Figure figure) {
    return figures ? figures->get(figure) : std::nullopt;
}

// An item from its two sides' figures (either may be missing: added or removed).
ComparedItem itemOf(ItemKind kind, std::string name, const Figures* base, const Figures* changed) {
    ComparedItem item;
    item.kind = kind;
    item.name = std::move(name);
    item.presence = !base ? Presence::Added : !changed ? Presence::Removed : Presence::Both;
    const auto has = [&](Figure figure) {
        return valueOf(base, figure) || valueOf(changed, figure);
    };
    size_t count = 0;
    for (size_t i = 0; i < kFigureCount; ++i)
        count += has(static_cast<Figure>(i)) ? 1 : 0;
    item.figures.reserve(count);
    for (size_t i = 0; i < kFigureCount; ++i) {
        const Figure figure = static_cast<Figure>(i);
        if (has(figure)) {
            item.figures.push_back(change(figure, valueOf(base, figure), valueOf(changed, figure)));
        }
    }
    return item;
}

// ---- Totals -------------------------------------------------------------------------------

// The figure that an operation's forward_ms is, by its part of the step (a recomputed
// operation's time is backward time).
Figure timeFigureOf(StepPart part) {
    switch (part) {
        case StepPart::AfterBackward:
            return Figure::AfterBackwardTime;
        case StepPart::Optimizer:
            return Figure::OptimizerTime;
        case StepPart::Recomputed:
            return Figure::BackwardTime;
        case StepPart::Forward:
            break;
    }
    return Figure::ForwardTime;
}

// The total a part's time is listed under.
std::string totalOfPart(Figure figure) {
    switch (figure) {
        case Figure::BackwardTime:
            return "backward";
        case Figure::AfterBackwardTime:
            return "after_backward";
        case Figure::OptimizerTime:
            return "optimizer";
        default:
            return "forward";
    }
}

// The totals' figures, by total's name ("iteration", "forward", ...).
std::map<std::string, Figures> totalsOf(const RunFigures& run) {
    std::map<std::string, Figures> t;
    if (run.has_time) {
        std::map<Figure, Value> parts{{Figure::ForwardTime, {}}, {Figure::BackwardTime, {}}};
        for (const OperationFigures& op : run.operations) {
            parts[timeFigureOf(op.part)] += Value{op.forward_ms, op.forward_spread};
            if (op.backward_ms) {
                parts[Figure::BackwardTime] += Value{*op.backward_ms, op.backward_spread};
            }
        }
        // The parts after the backward pass are totals only where the run had such operations.
        for (const auto& [figure, value] : parts)
            t[totalOfPart(figure)][figure] = value;
        if (run.iteration_ms) {
            t["iteration"][Figure::IterationTime] = {*run.iteration_ms, run.iteration_spread};
        }
    }
    if (run.has_memory) {
        Value activations = bytes(0), weights = bytes(0), gradients = bytes(0);
        for (const ActivationFigures& a : run.activations)
            activations += bytes(a.size_bytes);
        for (const ParameterFigures& w : run.weights) {
            weights += bytes(w.size_bytes);
            gradients += bytes(w.grad_size_bytes);
        }
        t["forward"][Figure::ActivationBytes] = activations;
        t["backward"][Figure::GradientBytes] = gradients;
        t["weights"][Figure::WeightBytes] = weights;
        if (run.peak_bytes) {
            t["iteration"][Figure::PeakBytes] = bytes(*run.peak_bytes);
        }
        if (const auto& b = run.peak_breakdown) {
            t["peak_weights"][Figure::PeakWeights] = bytes(b->weights);
            t["peak_gradients"][Figure::PeakGradients] = bytes(b->gradients);
            t["peak_optimizer_state"][Figure::PeakOptimizerState] = bytes(b->optimizer_state);
            t["peak_activations"][Figure::PeakActivations] = bytes(b->activations);
            t["peak_other"][Figure::PeakOther] = bytes(b->other);
        }
    }
    return t;
}

// ---- Matching by key ----------------------------------------------------------------------

// An operation is keyed by where it runs (its module, else its innermost project line), its
// name, and which call of that name it is there (1, 2, ...). The strings of both runs are
// numbered by one Interner, so that keys compare as integers.
struct OperationKey {
    uint32_t place = 0, operation = 0, occurrence = 0;
    uint32_t position = 0;  // the entry's index on its side
    bool sameAs(const OperationKey& o) const {
        return place == o.place && operation == o.operation && occurrence == o.occurrence;
    }
    bool before(const OperationKey& o) const {
        return std::tie(place, operation, occurrence) <
               std::tie(o.place, o.operation, o.occurrence);
    }
};

class Interner {
  public:
    uint32_t id(const std::string& text) {
        return ids_.emplace(text, static_cast<uint32_t>(ids_.size())).first->second;
    }

  private:
    std::unordered_map<std::string, uint32_t> ids_;
};

// Module paths and source lines are numbered apart: a module is never taken for a line.
struct Interners {
    Interner modules, locations, operations;
    static constexpr uint32_t kLocation = 0x80000000u;
};

const std::string& operationOf(const OperationFigures& op) {
    return op.name;
}
const std::string& operationOf(const ActivationFigures& activation) {
    return activation.operation;
}

// One side's keys, sorted by key. Sorting, not hashing: a million entries match in a few
// passes over arrays instead of millions of scattered hash-table nodes.
template <typename Entry>
std::vector<OperationKey> keyOperations(const std::vector<Entry>& entries, Interners& strings) {
    std::vector<OperationKey> keys(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry& entry = entries[i];
        OperationKey& key = keys[i];
        key.place = entry.module_path.empty()
                        ? Interners::kLocation | strings.locations.id(entry.location)
                        : strings.modules.id(entry.module_path);
        key.operation = strings.operations.id(operationOf(entry));
        key.position = static_cast<uint32_t>(i);
    }
    // Calls of one operation in one place, in the order they ran: their occurrences 1, 2, ...
    std::sort(keys.begin(), keys.end(), [](const OperationKey& x, const OperationKey& y) {
        return std::tie(x.place, x.operation, x.position) <
               std::tie(y.place, y.operation, y.position);
    });
    for (size_t i = 0; i < keys.size(); ++i) {
        const bool same_call = i > 0 && keys[i].place == keys[i - 1].place &&
                               keys[i].operation == keys[i - 1].operation;
        keys[i].occurrence = same_call ? keys[i - 1].occurrence + 1 : 1;
    }
    return keys;
}

// "blocks_0.mlp.lin_0 · aten::linear #1", "@model.py:23 · aten::gelu #1"; "(model)" for an
// operation with neither module nor project line.
template <typename Entry>
std::string operationName(const Entry& entry, uint32_t occurrence) {
    const std::string place = !entry.module_path.empty() ? entry.module_path
                              : entry.location.empty()   ? std::string("(model)")
                                                         : "@" + entry.location;
    return place + " · " + operationOf(entry) + " #" + std::to_string(occurrence);
}

// Activation bytes by the operation number that allocated them.
std::unordered_map<int64_t, int64_t> activationsByOperation(const RunFigures& run) {
    std::unordered_map<int64_t, int64_t> bytes;
    for (const ActivationFigures& a : run.activations) {
        if (a.operation_number > 0) {
            bytes[a.operation_number] += a.size_bytes;
        }
    }
    return bytes;
}

Figures figuresOf(const OperationFigures& op,
                  const std::unordered_map<int64_t, int64_t>* activations) {
    Figures f;
    f[timeFigureOf(op.part)] += {op.forward_ms, op.forward_spread};
    if (op.backward_ms) {
        f[Figure::BackwardTime] += {*op.backward_ms, op.backward_spread};
    }
    if (activations) {
        const auto found = activations->find(op.entry_id);
        f[Figure::ActivationBytes] = bytes(found == activations->end() ? 0 : found->second);
    }
    return f;
}

Figures figuresOf(const ActivationFigures& activation,
                  const std::unordered_map<int64_t, int64_t>*) {
    Figures f;
    f[Figure::ActivationBytes] = bytes(activation.size_bytes);
    return f;
}

// Both sides' operations as items: matched ones in the base's order, then the base's alone
// (removed), then the new run's alone (added). `activations`: each side's activation bytes by
// operation number, when both memory reports number them. The entries' module paths and
// lines move into the items (a million of each are not copied).
template <typename Entry>
void addOperations(std::vector<Entry>& a, std::vector<Entry>& b, EntryKind kind,
                   const std::unordered_map<int64_t, int64_t>* base_activations,
                   const std::unordered_map<int64_t, int64_t>* new_activations, Comparison& c) {
    c.items.reserve(c.items.size() + a.size() + b.size());
    Interners strings;
    const std::vector<OperationKey> base_keys = keyOperations(a, strings);
    const std::vector<OperationKey> new_keys = keyOperations(b, strings);
    // Both sorted by key: one merge finds the matches (and their occurrences).
    std::vector<long> match(a.size(), -1);  // base position -> new position
    std::vector<uint32_t> occurrence_a(a.size()), occurrence_b(b.size());
    std::vector<bool> matched_b(b.size(), false);
    for (const OperationKey& k : base_keys)
        occurrence_a[k.position] = k.occurrence;
    for (const OperationKey& k : new_keys)
        occurrence_b[k.position] = k.occurrence;
    for (size_t i = 0, j = 0; i < base_keys.size() && j < new_keys.size();) {
        if (base_keys[i].sameAs(new_keys[j])) {
            match[base_keys[i].position] = new_keys[j].position;
            matched_b[new_keys[j].position] = true;
            ++i;
            ++j;
        } else if (base_keys[i].before(new_keys[j])) {
            ++i;
        } else {
            ++j;
        }
    }
    const auto add = [&](Entry* base_entry, Entry* new_entry, uint32_t occurrence) {
        const Figures base = base_entry ? figuresOf(*base_entry, base_activations) : Figures{};
        const Figures changed = new_entry ? figuresOf(*new_entry, new_activations) : Figures{};
        Entry& entry = base_entry ? *base_entry : *new_entry;
        ComparedItem item = itemOf(ItemKind::Operation, operationName(entry, occurrence),
                                   base_entry ? &base : nullptr, new_entry ? &changed : nullptr);
        item.operation = operationOf(entry);
        if (entry.module_path.empty()) {
            item.location = std::move(entry.location);
        }
        item.module_path = std::move(entry.module_path);
        item.entry_kind = kind;
        item.base_entry = base_entry ? base_entry->entry_id : 0;
        item.new_entry = new_entry ? new_entry->entry_id : 0;
        (item.presence == Presence::Both    ? c.matched_operations
         : item.presence == Presence::Added ? c.added_operations
                                            : c.removed_operations) += 1;
        c.items.push_back(std::move(item));
    };
    for (size_t i = 0; i < a.size(); ++i) {
        add(&a[i], match[i] < 0 ? nullptr : &b[match[i]], occurrence_a[i]);
    }
    for (size_t j = 0; j < b.size(); ++j) {
        if (!matched_b[j]) {
            add(nullptr, &b[j], occurrence_b[j]);
        }
    }
}

// ---- Modules and parameters ---------------------------------------------------------------

// Every module's figures, inclusive of its submodules ("blocks.0" holds "blocks.0.mlp"'s).
std::map<std::string, Figures> moduleFigures(const RunFigures& run) {
    std::map<std::string, Figures> modules;
    const auto add = [&](const std::string& path, Figure figure, Value value) {
        for (size_t end = 0; !path.empty() && end != std::string::npos;) {
            end = path.find('.', end + 1);
            modules[path.substr(0, end)][figure] += value;
        }
    };
    // Every module a side knows has each figure that side measured, 0 where it has none.
    const auto measured = [&](std::initializer_list<Figure> figures) {
        for (auto& entry : modules)
            for (Figure figure : figures)
                entry.second[figure] += Value{};
    };
    for (const OperationFigures& op : run.operations) {
        add(op.module_path, timeFigureOf(op.part), {op.forward_ms, op.forward_spread});
        if (op.backward_ms) {
            add(op.module_path, Figure::BackwardTime, {*op.backward_ms, op.backward_spread});
        }
    }
    for (const ActivationFigures& a : run.activations)
        add(a.module_path, Figure::ActivationBytes, bytes(a.size_bytes));
    for (const ParameterFigures& w : run.weights) {
        add(w.module_path, Figure::WeightBytes, bytes(w.size_bytes));
        add(w.module_path, Figure::GradientBytes, bytes(w.grad_size_bytes));
    }
    if (run.has_time) {
        measured({Figure::ForwardTime, Figure::BackwardTime});
    }
    if (run.has_memory) {
        measured({Figure::ActivationBytes, Figure::WeightBytes, Figure::GradientBytes});
    }
    return modules;
}

template <typename Map, typename Make>
void addByName(const Map& base, const Map& changed, Make make) {
    for (const auto& [name, figures] : base) {
        const auto found = changed.find(name);
        make(name, &figures, found == changed.end() ? nullptr : &found->second);
    }
    for (const auto& [name, figures] : changed) {
        if (!base.count(name)) {
            make(name, nullptr, &figures);
        }
    }
}

void addModules(const RunFigures& a, const RunFigures& b, Comparison& c) {
    addByName(moduleFigures(a), moduleFigures(b),
              [&](const std::string& path, const Figures* base, const Figures* changed) {
                  ComparedItem item = itemOf(ItemKind::Module, path, base, changed);
                  item.module_path = path;
                  c.items.push_back(std::move(item));
              });
}

void addWeights(const RunFigures& a, const RunFigures& b, Comparison& c) {
    struct Parameter {
        Figures figures;
        int64_t entry_id = 0;
        std::string module_path;
    };
    const auto parameters = [](const RunFigures& run) {
        std::map<std::string, Parameter> byName;
        for (const ParameterFigures& w : run.weights) {
            Parameter& p = byName[w.name];
            p.figures[Figure::WeightBytes] += bytes(w.size_bytes);
            p.figures[Figure::GradientBytes] += bytes(w.grad_size_bytes);
            p.entry_id = w.entry_id;
            p.module_path = w.module_path;
        }
        return byName;
    };
    addByName(parameters(a), parameters(b),
              [&](const std::string& name, const Parameter* base, const Parameter* changed) {
                  ComparedItem item =
                      itemOf(ItemKind::Weight, name, base ? &base->figures : nullptr,
                             changed ? &changed->figures : nullptr);
                  item.module_path = (base ? base : changed)->module_path;
                  item.entry_kind = EntryKind::Weight;
                  item.base_entry = base ? base->entry_id : 0;
                  item.new_entry = changed ? changed->entry_id : 0;
                  c.items.push_back(std::move(item));
              });
}

// ---- Order and checks ---------------------------------------------------------------------

// What an item is sorted by: the change, or for an item of one side, its size there.
double magnitude(const FigureChange& change) {
    if (change.compared()) {
        return std::abs(change.delta());
    }
    return std::abs(change.base.value_or(change.changed.value_or(0.0)));
}

void sortItems(std::vector<ComparedItem>& items) {
    struct SortKey {
        ItemKind kind;
        double time, memory;
        size_t index;
    };
    std::vector<SortKey> keys;
    keys.reserve(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
        keys.push_back(
            {items[i].kind, magnitude(items[i].time()), magnitude(items[i].memory()), i});
    }
    std::sort(keys.begin(), keys.end(), [&](const SortKey& x, const SortKey& y) {
        if (x.kind != y.kind) {
            return x.kind < y.kind;
        }
        if (x.time != y.time) {
            return x.time > y.time;
        }
        if (x.memory != y.memory) {
            return x.memory > y.memory;
        }
        return items[x.index].name < items[y.index].name;
    });
    std::vector<ComparedItem> sorted;
    sorted.reserve(items.size());
    for (const SortKey& key : keys)
        sorted.push_back(std::move(items[key.index]));
    items = std::move(sorted);
}

bool isBuiltin(const std::string& model) {
    return model.rfind("builtin:", 0) == 0;
}

// Built-in models are told apart by name. An archive's path says nothing (a new version of a
// model is usually a new file), so archives are compared by what they share.
void requireSameModel(const RunFigures& a, const RunFigures& b, const Comparison& c) {
    if (a.model.empty() || b.model.empty() || a.model == b.model) {
        return;
    }
    if (isBuiltin(a.model) || isBuiltin(b.model)) {
        throw Error("different models: " + c.base.label + " ran " + a.model + ", " +
                    c.changed.label + " ran " + b.model);
    }
}

void addNotes(const RunFigures& a, const RunFigures& b, Comparison& c) {
    const auto side = [&](const RunFigures& run) {
        return &run == &a ? "the base run (" + c.base.label + ")"
                          : "the new run (" + c.changed.label + ")";
    };
    for (const RunFigures* run : {&a, &b}) {
        const RunFigures& other = run == &a ? b : a;
        if (!run->has_time && other.has_time) {
            c.notes.push_back(side(*run) + " has no run time report: times are not compared");
        }
        if (!run->has_memory && other.has_memory) {
            c.notes.push_back(side(*run) + " has no memory report: memory is not compared");
        }
        if (run->has_time && !run->operations.empty() && !run->operations.front().forward_spread) {
            c.notes.push_back(side(*run) +
                              " keeps no spread of its times (another tool's report): every "
                              "time difference counts");
        }
    }
    if (a.has_time && b.has_time && a.has_memory && b.has_memory &&
        !(a.activations_numbered && b.activations_numbered)) {
        c.notes.push_back(
            "the activations are compared per module and in total, not per operation: a "
            "memory report does not say which operation allocated them");
    }
}

// See FigureChange::min_change: 1% of the base run's iteration (its wall time, else the sum
// of its operations' times).
void setTimeFloor(const RunFigures& base, Comparison& c) {
    double iteration = base.iteration_ms.value_or(0.0);
    if (iteration <= 0) {
        for (const OperationFigures& op : base.operations)
            iteration += op.forward_ms + op.backward_ms.value_or(0.0);
    }
    const double floor = 0.01 * iteration;
    for (ComparedItem& item : c.items) {
        for (FigureChange& f : item.figures) {
            if (isTime(f.figure)) {
                f.min_change = floor;
            }
        }
    }
}

bool sharesAnything(const Comparison& c) {
    for (const ComparedItem& item : c.items) {
        if (item.kind != ItemKind::Total && item.presence == Presence::Both) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool isTime(Figure figure) {
    return figure == Figure::IterationTime || figure == Figure::ForwardTime ||
           figure == Figure::BackwardTime || figure == Figure::AfterBackwardTime ||
           figure == Figure::OptimizerTime;
}

const char* figureKey(Figure figure) {
    switch (figure) {
        case Figure::IterationTime:
            return "iteration_ms";
        case Figure::ForwardTime:
            return "forward_ms";
        case Figure::BackwardTime:
            return "backward_ms";
        case Figure::AfterBackwardTime:
            return "after_backward_ms";
        case Figure::OptimizerTime:
            return "optimizer_ms";
        case Figure::ActivationBytes:
            return "activation_bytes";
        case Figure::WeightBytes:
            return "weight_bytes";
        case Figure::GradientBytes:
            return "gradient_bytes";
        case Figure::PeakBytes:
            return "peak_bytes";
        case Figure::PeakWeights:
            return "peak_weights_bytes";
        case Figure::PeakGradients:
            return "peak_gradients_bytes";
        case Figure::PeakOptimizerState:
            return "peak_optimizer_state_bytes";
        case Figure::PeakActivations:
            return "peak_activations_bytes";
        case Figure::PeakOther:
            return "peak_other_bytes";
    }
    return "";
}

bool FigureChange::significant() const {
    if (!compared() || delta() == 0 || std::abs(delta()) <= min_change) {
        return false;
    }
    if (!base_spread || !new_spread) {
        return true;
    }
    return delta() > 0 ? new_spread->min_ms > base_spread->max_ms
                       : new_spread->max_ms < base_spread->min_ms;
}

std::optional<double> FigureChange::percent() const {
    if (!compared() || *base == 0.0) {
        return std::nullopt;
    }
    return 100.0 * delta() / std::abs(*base);
}

const FigureChange* ComparedItem::figure(Figure which) const {
    for (const FigureChange& f : figures) {
        if (f.figure == which) {
            return &f;
        }
    }
    return nullptr;
}

namespace {
// The item's figures of one kind (time or memory), added; a side has the sum when it has any.
// Adds one side of a figure to a sum (its spread too, which stays only while every part has one).
void add(std::optional<double>& sum, std::optional<Spread>& sum_spread,
         const std::optional<double>& value, const std::optional<Spread>& spread) {
    if (!value) {
        return;
    }
    const bool empty = !sum;
    sum = sum.value_or(0.0) + *value;
    if (spread && (empty || sum_spread)) {
        const Spread previous = empty ? Spread{} : *sum_spread;
        sum_spread = Spread{previous.min_ms + spread->min_ms, previous.max_ms + spread->max_ms};
    } else {
        sum_spread.reset();
    }
}

FigureChange sumOf(const std::vector<FigureChange>& figures, bool time) {
    FigureChange sum;
    sum.figure = time ? Figure::ForwardTime : Figure::ActivationBytes;
    for (const FigureChange& f : figures) {
        if (isTime(f.figure) != time) {
            continue;
        }
        sum.min_change = std::max(sum.min_change, f.min_change);
        add(sum.base, sum.base_spread, f.base, f.base_spread);
        add(sum.changed, sum.new_spread, f.changed, f.new_spread);
    }
    return sum;
}
}  // namespace

FigureChange ComparedItem::time() const {
    if (const FigureChange* iteration = figure(Figure::IterationTime)) {
        return *iteration;
    }
    return sumOf(figures, true);
}

FigureChange ComparedItem::memory() const {
    if (const FigureChange* peak = figure(Figure::PeakBytes)) {
        return *peak;
    }
    return sumOf(figures, false);
}

Comparison compareRuns(const RunReports& base, const RunReports& changed) {
    Comparison c;
    c.base = base;
    c.changed = changed;
    // The two runs' files are read side by side (each with its own connection).
    std::future<RunFigures> reading_base = std::async(std::launch::async, readRunFigures, base);
    RunFigures b = readRunFigures(changed);
    RunFigures a = reading_base.get();
    if (!(a.has_time && b.has_time) && !(a.has_memory && b.has_memory)) {
        throw Error("nothing to compare: " + base.label + " and " + changed.label +
                    " have no memory or run time report of the same kind (a timeline is "
                    "compared only beside them)");
    }
    c.base_model = a.model;
    c.new_model = b.model;
    requireSameModel(a, b, c);

    addByName(totalsOf(a), totalsOf(b),
              [&](const std::string& name, const Figures* x, const Figures* y) {
                  c.items.push_back(itemOf(ItemKind::Total, name, x, y));
              });
    addModules(a, b, c);
    if (a.has_time && b.has_time) {
        // Each operation carries the activations it allocated when both memory reports say.
        const bool numbered = a.activations_numbered && b.activations_numbered;
        const auto base_bytes = activationsByOperation(a), new_bytes = activationsByOperation(b);
        addOperations(a.operations, b.operations, EntryKind::RunTime,
                      numbered ? &base_bytes : nullptr, numbered ? &new_bytes : nullptr, c);
    } else {
        // Without run time reports on both sides: the activation entries, matched alike.
        addOperations(a.activations, b.activations, EntryKind::Activation, nullptr, nullptr, c);
    }
    addWeights(a, b, c);
    if (!sharesAnything(c)) {
        throw Error(base.label + " and " + changed.label +
                    " have no module, operation or parameter in common: runs of different "
                    "models?");
    }
    addNotes(a, b, c);
    setTimeFloor(a, c);
    sortItems(c.items);
    return c;
}

}  // namespace trainscope
