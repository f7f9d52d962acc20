// SPDX-License-Identifier: Apache-2.0
#include "timeline/live_blocks_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QVBoxLayout>

#include "reading/sql_table_model.h"
#include "timeline/time_axis.h"

namespace trainscope::ui {
namespace {

constexpr int kShownGroups = 500;  // a list nobody reads further; the title has the totals
constexpr int kShownBlocks = 200;  // per group
constexpr int kCallRole = Qt::UserRole;

enum Column { Size, Blocks, Operation, Module, Allocated, Freed };

}  // namespace

LiveBlocksView::LiveBlocksView(TimelineViewState* state, QWidget* parent)
    : QWidget(parent),
      state_(state),
      title_(new QLabel(tr("Click the memory curve, or Peak, to list the blocks alive then."))),
      tree_(new QTreeWidget) {
    tree_->setHeaderLabels({tr("Size"), tr("Blocks"), tr("Operation"), tr("Module"),
                            tr("Allocated at"), tr("Freed at")});
    tree_->setRootIsDecorated(true);
    tree_->setUniformRowHeights(true);
    tree_->header()->setSectionResizeMode(QHeaderView::Interactive);
    title_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(title_);
    layout->addWidget(tree_, 1);
    connect(state_, &TimelineViewState::momentChanged, this, &LiveBlocksView::showMoment);
    // A group's blocks sit one level deeper, in the first column: it fits every row shown, also
    // once a group is expanded (a column sized when the tree is filled fits the groups alone).
    tree_->header()->setSectionResizeMode(Size, QHeaderView::ResizeToContents);
    connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (!item)
            return;
        const QList<QVariant> call = item->data(0, kCallRole).toList();
        if (call.size() == 3)
            emit callChosen({call[0].toInt(), {call[1].toInt(), call[2].toInt()}});
    });
}

void LiveBlocksView::showMoment() {
    tree_->clear();
    const auto moment = state_->moment();
    if (!moment)
        return;
    int64_t bytes = 0, blocks = 0;
    const TimelineRanks& ranks = state_->ranks();
    // A snapshot's blocks are named by category, not operation.
    const bool categories = !ranks.isEmpty() && ranks.front()->blocks_by_category;
    tree_->headerItem()->setText(Operation, categories ? tr("Category") : tr("Operation"));
    QList<QTreeWidgetItem*> items;
    for (int rank = 0; rank < ranks.size(); ++rank) {
        const TimelineData& data = *ranks[rank];
        const int64_t offset = data.alignment_ns();
        const std::vector<LiveBlockGroup> groups = liveBlocksAt(data, *moment + offset);
        for (const LiveBlockGroup& group : groups) {
            bytes += group.bytes;
            blocks += int64_t(group.blocks.size());
            if (items.size() >= kShownGroups)
                continue;
            const QString operation = QString::fromStdString(data.text(group.operation));
            const QString module = QString::fromStdString(data.text(group.module));
            auto* parent = new QTreeWidgetItem(
                {formatBytes(group.bytes), QString::number(group.blocks.size()),
                 ranks.size() > 1 ? tr("%1 (rank %2)").arg(operation).arg(rank) : operation,
                 module});
            auto callData = [rank](SpanRef call) {
                return QVariant(QList<QVariant>{rank, call.lane, call.index});
            };
            parent->setData(0, kCallRole, callData(group.blocks.front().call));
            for (size_t i = 0; i < group.blocks.size() && i < size_t(kShownBlocks); ++i) {
                const MemoryBlock& block = data.blocks[group.blocks[i].block];
                auto* child = new QTreeWidgetItem(
                    parent, {formatBytes(block.size), QString(), operation, module,
                             formatDuration(block.allocated_ns - offset),
                             block.freed() ? formatDuration(block.released_ns - offset)
                                           : tr("never freed")});
                child->setData(0, kCallRole, callData(group.blocks[i].call));
            }
            if (group.blocks.size() > size_t(kShownBlocks))
                new QTreeWidgetItem(parent,
                                    {tr("… %1 more").arg(group.blocks.size() - kShownBlocks)});
            items << parent;
        }
    }
    tree_->addTopLevelItems(items);
    for (int column = 0; column <= Module; ++column)
        tree_->resizeColumnToContents(column);
    // The blocks are those of OP_MEMORY, allocated during the iteration; the allocated total
    // also holds what was allocated before it began (weights, optimizer state).
    int64_t allocated = 0;
    for (const auto& data : ranks) {
        const auto after = std::upper_bound(
            data->memory.begin(), data->memory.end(), *moment + data->alignment_ns(),
            [](int64_t t, const MemorySample& s) { return t < s.timestamp_ns; });
        allocated += after == data->memory.begin() ? 0 : std::prev(after)->total_allocated;
    }
    title_->setText(tr("Alive at %1: %2 allocated in all; %3 of it in %4 blocks allocated during "
                       "the iteration, largest first")
                        .arg(formatDuration(*moment), formatBytes(allocated), formatBytes(bytes))
                        .arg(blocks));
}

}  // namespace trainscope::ui
