// SPDX-License-Identifier: Apache-2.0
// The run by module: each module's forward and backward time, activation, weight and gradient
// bytes, its own (self) and with its submodules' (inclusive), from TrainScope's module tables
// (docs/report-formats.md). Reports without them (Skyline's, DeepView's) put every entry in the
// model itself. Read on the run's worker thread; the tree is plain data.
#pragma once

#include <QHash>
#include <QString>
#include <QVector>

#include <optional>

#include "trainscope/reports.h"

namespace trainscope::ui {

class ReportFile;

struct ModuleFigures {
    double forward_ms = 0;   // its forward operations'
    double backward_ms = 0;  // its backward nodes' and recomputed operations'
    // Its operations after the backward pass and before the optimizer's step (gradient
    // clipping), and in the optimizer's step: not forward time.
    double after_backward_ms = 0;
    double optimizer_ms = 0;
    qint64 operations = 0;
    qint64 activation_bytes = 0;
    qint64 weight_bytes = 0;
    qint64 gradient_bytes = 0;
    // The numbers (#) of its first and last operation: its operations run in that range.
    qint64 first_operation = 0;  // 0: none
    qint64 last_operation = 0;
    // Its tied weights: attributes that name another module's weight ("head.weight" naming
    // "wte.weight"), whose bytes are counted once, there. Its own, not its submodules'.
    QStringList tied_to;
    // An FSDP2 unit (a module that fully_shard sharded) as this rank held it. Its own.
    std::optional<FsdpUnitEntry> fsdp_unit;
    double totalMs() const { return forward_ms + backward_ms + after_backward_ms + optimizer_ms; }
    void add(const ModuleFigures& other);
};

struct ModuleNode {
    QString name;  // the path's last part ("lin_0"); the root's is empty
    QString path;  // "blocks_0.mlp.lin_0"; the root's is empty
    int parent = -1;
    QVector<int> children;  // submodules, in the order their first operations run
    ModuleFigures self;
    ModuleFigures inclusive;
};

class ModuleTree {
  public:
    // `self`: each module path's own figures; "" is the model itself (and code outside any
    // submodule). Every level of a path becomes a node, with or without figures of its own.
    static ModuleTree build(const QHash<QString, ModuleFigures>& self);
    static constexpr int kRoot = 0;
    const ModuleNode& node(int index) const { return nodes_[index]; }
    int size() const { return int(nodes_.size()); }
    int find(const QString& path) const { return index_.value(path, -1); }

  private:
    int nodeOf(const QString& path);
    QVector<ModuleNode> nodes_;
    QHash<QString, int> index_;
};

// One operation of a module (a run time entry, with the activations it allocated).
struct ModuleOperation {
    qint64 number = 0;  // # (the run time entry id); without a run time report, the
                        // activation's operation number, or minus its entry id
    QString name;
    double forward_ms = 0;
    double backward_ms = 0;
    double after_backward_ms = 0;  // as ModuleFigures'
    double optimizer_ms = 0;
    qint64 activation_bytes = 0;
};

struct ModuleOperations {
    QVector<ModuleOperation> operations;  // in the order they ran, at most `limit`
    QString error;
};

// Each module's own figures in a run's reports (either may be null: not in the run).
QHash<QString, ModuleFigures> readModuleFigures(const ReportFile* memory, const ReportFile* time,
                                                QString* error);
// The operations of module `path` alone ("": the model's own), up to `limit`.
ModuleOperations readModuleOperations(const ReportFile* memory, const ReportFile* time,
                                      const QString& path, int limit);

}  // namespace trainscope::ui
