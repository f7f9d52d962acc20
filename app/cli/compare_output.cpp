// SPDX-License-Identifier: Apache-2.0
#include "cli/compare_output.h"

#include <cmath>
#include <cstdio>

#include "trainscope/json_text.h"
#include "trainscope/summary_text.h"

namespace trainscope::cli {
namespace {

const char* kindName(ItemKind kind) {
    switch (kind) {
        case ItemKind::Total:
            return "total";
        case ItemKind::Module:
            return "module";
        case ItemKind::Operation:
            return "operation";
        case ItemKind::Weight:
            return "parameter";
    }
    return "";
}

const char* sectionTitle(ItemKind kind) {
    switch (kind) {
        case ItemKind::Total:
            return "Totals";
        case ItemKind::Module:
            return "Modules (inclusive of their submodules)";
        case ItemKind::Operation:
            return "Operations";
        case ItemKind::Weight:
            return "Parameters";
    }
    return "";
}

const char* presenceName(Presence presence) {
    return presence == Presence::Added     ? "added"
           : presence == Presence::Removed ? "removed"
                                           : "both";
}

// A figure's value in its unit: "1.234 ms", "12.0 MiB".
std::string amount(Figure figure, double value) {
    if (isTime(figure)) {
        return format("%.3f ms", value);
    }
    return formatBytes(static_cast<int64_t>(std::llround(value)));
}

std::string signedAmount(Figure figure, double value) {
    const std::string sign = value > 0 ? "+" : value < 0 ? "-" : "±";
    return sign + amount(figure, std::abs(value));
}

std::string valueOr(Figure figure, const std::optional<double>& value) {
    return value ? amount(figure, *value) : "-";
}

std::string percentText(const FigureChange& f) {
    if (!f.compared()) {
        return f.base ? "removed" : "added";
    }
    const std::optional<double> percent = f.percent();
    return percent ? format("%+.1f%%", *percent) : (f.delta() == 0 ? "0.0%" : "new");
}

// The verdict on a change: "within noise" for a time change smaller than the runs' spread.
std::string verdict(const FigureChange& f) {
    if (!f.compared() || f.delta() == 0) {
        return "";
    }
    return f.significant() ? "" : "within noise";
}

// The figures worth a line: every figure of a total; a changed or one-sided figure otherwise.
std::vector<const FigureChange*> shownFigures(const ComparedItem& item) {
    std::vector<const FigureChange*> shown;
    for (const FigureChange& f : item.figures) {
        if (item.kind == ItemKind::Total || !f.compared() || f.delta() != 0) {
            shown.push_back(&f);
        }
    }
    return shown;
}

// The items of one kind to list: the first `top` (they come sorted by the size of their change;
// the totals all), of those that changed (text and markdown) or of all (JSON).
std::vector<const ComparedItem*> itemsOf(const Comparison& c, ItemKind kind, int top, size_t* total,
                                         bool changed_only = true) {
    std::vector<const ComparedItem*> items;
    *total = 0;
    for (const ComparedItem& item : c.items) {
        if (item.kind != kind || (changed_only && shownFigures(item).empty())) {
            continue;
        }
        ++*total;
        if (kind == ItemKind::Total || top <= 0 || items.size() < static_cast<size_t>(top)) {
            items.push_back(&item);
        }
    }
    return items;
}

constexpr ItemKind kKinds[] = {ItemKind::Total, ItemKind::Module, ItemKind::Operation,
                               ItemKind::Weight};

std::string pad(std::string text, size_t width) {
    if (text.size() < width) {
        text.resize(width, ' ');
    }
    return text;
}

std::string limitsText(const GateLimits& limits) {
    return format("time +%g%%", limits.max_time_increase_pct) + ", " +
           format("memory +%g%%", limits.max_memory_increase_pct);
}

void printText(std::ostream& out, const Comparison& c, const GateLimits& limits,
               const std::vector<GateViolation>& violations, int top) {
    out << "Base: " << c.base.label << (c.base_model.empty() ? "" : " (" + c.base_model + ")")
        << "\nNew:  " << c.changed.label << (c.new_model.empty() ? "" : " (" + c.new_model + ")")
        << "\n";
    out << "Operations: " << c.matched_operations << " matched, " << c.added_operations
        << " added, " << c.removed_operations << " removed\n";
    for (const std::string& note : c.notes)
        out << "Note: " << note << "\n";
    for (ItemKind kind : kKinds) {
        size_t total = 0;
        const auto items = itemsOf(c, kind, top, &total);
        if (items.empty()) {
            continue;
        }
        out << "\n" << sectionTitle(kind);
        if (items.size() < total) {
            out << ": the " << items.size() << " largest changes of " << total;
        }
        out << "\n";
        for (const ComparedItem* item : items) {
            out << "  " << item->name
                << (item->presence == Presence::Both
                        ? ""
                        : std::string("  [") + presenceName(item->presence) + "]")
                << "\n";
            for (const FigureChange* f : shownFigures(*item)) {
                out << "    " << pad(figureKey(f->figure), 28)
                    << pad(valueOr(f->figure, f->base), 14) << "-> "
                    << pad(valueOr(f->figure, f->changed), 14)
                    << pad(f->compared() ? signedAmount(f->figure, f->delta()) : "", 15)
                    << pad(percentText(*f), 9) << verdict(*f) << "\n";
            }
        }
    }
    out << "\nGate (" << limitsText(limits) << "): ";
    if (violations.empty()) {
        out << "passed\n";
        return;
    }
    out << violations.size() << (violations.size() == 1 ? " increase" : " increases")
        << " over the limits\n";
    for (const GateViolation& v : violations)
        out << "  " << violationLine(v, limits) << "\n";
}

// ---- Markdown ------------------------------------------------------------------------------

std::string cell(std::string text) {
    std::string escaped;
    for (char ch : text) {
        if (ch == '|' || ch == '\\' || ch == '*' || ch == '_' || ch == '`') {
            escaped += '\\';
        }
        escaped += ch == '\n' ? ' ' : ch;
    }
    return escaped;
}

void printMarkdown(std::ostream& out, const Comparison& c, const GateLimits& limits,
                   const std::vector<GateViolation>& violations, int top) {
    out << "### TrainScope: " << cell(c.changed.label) << " compared with " << cell(c.base.label)
        << "\n\n";
    if (violations.empty()) {
        out << "**Passed**: no increase over the limits (" << limitsText(limits) << ").\n";
    } else {
        out << "**" << violations.size() << (violations.size() == 1 ? " increase" : " increases")
            << " over the limits** (" << limitsText(limits) << "):\n\n";
        for (const GateViolation& v : violations)
            out << "- " << cell(violationLine(v, limits)) << "\n";
    }
    out << "\nOperations: " << c.matched_operations << " matched, " << c.added_operations
        << " added, " << c.removed_operations << " removed.\n";
    for (const std::string& note : c.notes)
        out << "\n> " << cell(note) << "\n";
    for (ItemKind kind : kKinds) {
        size_t total = 0;
        const auto items = itemsOf(c, kind, top, &total);
        if (items.empty()) {
            continue;
        }
        out << "\n#### " << sectionTitle(kind);
        if (items.size() < total) {
            out << " (the " << items.size() << " largest changes of " << total << ")";
        }
        out << "\n\n| " << kindName(kind) << " | figure | base | new | Δ | Δ% |\n"
            << "|---|---|--:|--:|--:|--:|\n";
        for (const ComparedItem* item : items) {
            for (const FigureChange* f : shownFigures(*item)) {
                const std::string note = verdict(*f);
                out << "| " << cell(item->name) << " | " << figureKey(f->figure) << " | "
                    << valueOr(f->figure, f->base) << " | " << valueOr(f->figure, f->changed)
                    << " | " << (f->compared() ? signedAmount(f->figure, f->delta()) : "") << " | "
                    << percentText(*f) << (note.empty() ? "" : " (" + note + ")") << " |\n";
            }
        }
    }
}

// ---- JSON ----------------------------------------------------------------------------------

std::string quoted(const std::string& text) {
    std::string out;
    appendJsonString(out, text);
    return out;
}

std::string number(const std::optional<double>& value) {
    return value ? jsonNumber(*value) : "null";
}

std::string run(const RunReports& reports, const std::string& model) {
    const auto path = [](const std::string& p) { return p.empty() ? "null" : quoted(p); };
    return "{\"label\": " + quoted(reports.label) + ", \"model\": " + quoted(model) +
           ", \"memory_report\": " + path(reports.memory) +
           ", \"time_report\": " + path(reports.time) +
           ", \"timeline_report\": " + path(reports.timeline) + "}";
}

std::string spread(const std::optional<Spread>& s) {
    return s ? "{\"min\": " + jsonNumber(s->min_ms) + ", \"max\": " + jsonNumber(s->max_ms) + "}"
             : "null";
}

std::string figureJson(const FigureChange& f) {
    return std::string("{\"figure\": \"") + figureKey(f.figure) + "\", \"unit\": \"" +
           (isTime(f.figure) ? "ms" : "bytes") + "\", \"base\": " + number(f.base) +
           ", \"new\": " + number(f.changed) +
           ", \"delta\": " + (f.compared() ? jsonNumber(f.delta()) : "null") +
           ", \"percent\": " + number(f.percent()) + ", \"base_spread\": " + spread(f.base_spread) +
           ", \"new_spread\": " + spread(f.new_spread) +
           ", \"min_change\": " + jsonNumber(f.min_change) +
           ", \"significant\": " + (f.significant() ? "true" : "false") + "}";
}

std::string entryId(int64_t id) {
    return id > 0 ? std::to_string(id) : "null";
}

void printJson(std::ostream& out, const Comparison& c, const GateLimits& limits,
               const std::vector<GateViolation>& violations, int top) {
    out << "{\n  \"schema\": \"trainscope-comparison/1\",\n  \"base\": "
        << run(c.base, c.base_model) << ",\n  \"new\": " << run(c.changed, c.new_model)
        << ",\n  \"limits\": "
        << "{\"max_time_increase_pct\": " << jsonNumber(limits.max_time_increase_pct)
        << ", \"max_memory_increase_pct\": " << jsonNumber(limits.max_memory_increase_pct)
        << "},\n  \"passed\": " << (violations.empty() ? "true" : "false")
        << ",\n  \"operations\": {\"matched\": " << c.matched_operations
        << ", \"added\": " << c.added_operations << ", \"removed\": " << c.removed_operations
        << "},\n  \"notes\": [";
    for (size_t i = 0; i < c.notes.size(); ++i)
        out << (i ? ", " : "") << quoted(c.notes[i]);
    out << "],\n  \"violations\": [";
    for (size_t i = 0; i < violations.size(); ++i) {
        const GateViolation& v = violations[i];
        out << (i ? "," : "") << "\n    {\"kind\": \"" << kindName(v.item->kind)
            << "\", \"name\": " << quoted(v.item->name) << ", \"change\": " << figureJson(v.change)
            << ", \"limit_pct\": "
            << jsonNumber(isTime(v.change.figure) ? limits.max_time_increase_pct
                                                  : limits.max_memory_increase_pct)
            << "}";
    }
    out << (violations.empty() ? "" : "\n  ") << "],\n  \"items\": [";
    bool first = true;
    for (ItemKind kind : kKinds) {
        size_t total = 0;
        for (const ComparedItem* item : itemsOf(c, kind, top, &total, false)) {
            out << (first ? "" : ",") << "\n    {\"kind\": \"" << kindName(item->kind)
                << "\", \"name\": " << quoted(item->name) << ", \"presence\": \""
                << presenceName(item->presence)
                << "\", \"module_path\": " << quoted(item->module_path)
                << ", \"operation\": " << quoted(item->operation)
                << ", \"location\": " << quoted(item->location)
                << ", \"base_entry_id\": " << entryId(item->base_entry)
                << ", \"new_entry_id\": " << entryId(item->new_entry) << ", \"figures\": [";
            for (size_t i = 0; i < item->figures.size(); ++i)
                out << (i ? ", " : "") << figureJson(item->figures[i]);
            out << "]}";
            first = false;
        }
    }
    out << (first ? "" : "\n  ") << "]\n}\n";
}

}  // namespace

std::string violationLine(const GateViolation& v, const GateLimits& limits) {
    const FigureChange& f = v.change;
    const double limit =
        isTime(f.figure) ? limits.max_time_increase_pct : limits.max_memory_increase_pct;
    std::string line = std::string(kindName(v.item->kind)) + " " + v.item->name + ": " +
                       figureKey(f.figure) + " " + valueOr(f.figure, f.base) + " -> " +
                       valueOr(f.figure, f.changed) + " (" + percentText(f) +
                       format(", limit %g%%", limit);
    if (f.base_spread && f.new_spread) {
        line += format("; base %.3f", f.base_spread->min_ms) +
                format("-%.3f ms, ", f.base_spread->max_ms) +
                format("new %.3f", f.new_spread->min_ms) +
                format("-%.3f ms over the measured iterations", f.new_spread->max_ms);
    }
    return line + ")";
}

void printComparison(std::ostream& out, CompareFormat format, const Comparison& comparison,
                     const GateLimits& limits, const std::vector<GateViolation>& violations,
                     int top) {
    switch (format) {
        case CompareFormat::Text:
            printText(out, comparison, limits, violations, top < 0 ? 10 : top);
            break;
        case CompareFormat::Markdown:
            printMarkdown(out, comparison, limits, violations, top < 0 ? 10 : top);
            break;
        case CompareFormat::Json:
            printJson(out, comparison, limits, violations, top < 0 ? 0 : top);
            break;
    }
}

}  // namespace trainscope::cli
