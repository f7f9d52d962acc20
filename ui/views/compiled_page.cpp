// SPDX-License-Identifier: Apache-2.0
#include "views/compiled_page.h"

#include <QLocale>
#include <QVBoxLayout>

#include "views/layout.h"

namespace trainscope::ui {
namespace {

QString figure(double value, int decimals) {
    return QLocale().toString(value, 'f', decimals);
}

}  // namespace

CompiledPage::CompiledPage(const TimeSummary& time, QWidget* parent)
    : QWidget(parent),
      heading_(new QLabel),
      table_(figuresTable({tr("Step"), tr("Compile ID"), tr("Graph"), tr("Function"), tr("Where"),
                           tr("Time (s)"), tr("Graph break"), tr("Recompiled because")})) {
    QStringList lines;
    int breaks = 0, recompilations = 0;
    double seconds = 0.0;
    for (const Compilation& c : time.compilations) {
        breaks += !c.graph_break.empty();
        recompilations += !c.recompiled_because.empty();
        seconds += c.ms() / 1e3;
    }
    lines << tr("%n compilations by torch.compile, %1 s; graph breaks: %2, recompilations: %3",
                nullptr, int(time.compilations.size()))
                 .arg(figure(seconds, 3), QLocale().toString(breaks),
                      QLocale().toString(recompilations));
    if (!time.compiled_steps.isEmpty())
        lines << time.compiled_steps;
    const KernelTotals& k = time.kernels;
    if (k.kernels > 0) {
        const double total = k.forward_ms + k.backward_ms;
        lines << tr("Kernels of compiled regions: %1, %2 ms (forward %3 ms, backward %4 ms); "
                    "%5% of their time on a module and a line of the project")
                     .arg(QLocale().toString(qlonglong(k.kernels)), figure(total, 3),
                          figure(k.forward_ms, 3), figure(k.backward_ms, 3),
                          figure(total > 0 ? 100.0 * k.placed_ms / total : 100.0, 1));
        for (const auto& [why, ms] : k.unplaced)
            lines << tr("%1 ms without a line: %2").arg(figure(ms, 3), QString::fromStdString(why));
    }
    if (!k.note.empty())
        lines << QString::fromStdString(k.note);
    heading_->setText(lines.join(QLatin1Char('\n')));
    heading_->setWordWrap(true);
    heading_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    QVector<FrameRow> places;
    for (const Compilation& c : time.compilations) {
        const int row = table_->rowCount();
        table_->insertRow(row);
        const QString where = c.file_path.empty() ? QStringLiteral("–")
                                                  : QStringLiteral("%1:%2")
                                                        .arg(QString::fromStdString(c.file_path))
                                                        .arg(c.line_number);
        const QStringList cells = {
            c.step > 0 ? QLocale().toString(qlonglong(c.step)) : tr("warm-up"),
            QString::fromStdString(c.compile_id),
            c.kind == "backward" ? tr("backward") : tr("forward"),
            QString::fromStdString(c.function),
            where,
            figure(c.ms() / 1e3, 3),
            QString::fromStdString(c.graph_break),
            QString::fromStdString(c.recompiled_because)};
        for (int column = 0; column < cells.size(); ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            item->setToolTip(cells[column]);
            if (column == 0 || column == 5)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(row, column, item);
        }
        places << FrameRow{QString::fromStdString(c.file_path), c.line_number, QString()};
    }
    table_->resizeColumnsToContents();
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this, places] {
        const int row = table_->currentRow();
        if (row >= 0 && row < places.size() && !places[row].file_path.isEmpty())
            emit lineSelected({places[row]});
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(table_, 1);
}

}  // namespace trainscope::ui
