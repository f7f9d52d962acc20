// SPDX-License-Identifier: Apache-2.0
#include "views/entry_table_view.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QResizeEvent>
#include <QScrollBar>
#include <QStyledItemDelegate>
#include <algorithm>
#include <vector>

#include "reading/sql_table_model.h"
#include "views/export.h"

namespace trainscope::ui {

QString elidedEntryName(const QString& name, const QFontMetrics& metrics, int width) {
    if (metrics.horizontalAdvance(name) <= width)
        return name;
    const QString separator = QStringLiteral(" · ");
    const int at = name.indexOf(separator);
    if (at < 0)
        return metrics.elidedText(name, Qt::ElideMiddle, width);
    // "module · operation": the operation whole, the module losing its start first (its last
    // parts, "0.attn", tell more); an operation too long alone loses its middle.
    const QString operation = name.mid(at);
    const int room = width - metrics.horizontalAdvance(operation);
    if (room >= metrics.horizontalAdvance(QStringLiteral("…m")))
        return metrics.elidedText(name.left(at), Qt::ElideLeft, room) + operation;
    return metrics.elidedText(name.mid(at + separator.size()), Qt::ElideMiddle, width);
}

namespace {

// Draws a cell's text elided as elidedEntryName says, before the style would elide it
// in its middle.
class EntryNameDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;

  protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        const QWidget* widget = option->widget;
        const QStyle* style = widget ? widget->style() : QApplication::style();
        const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, widget) + 1;
        option->text =
            elidedEntryName(option->text, option->fontMetrics, option->rect.width() - 2 * margin);
    }
};

}  // namespace

EntryTableView::EntryTableView(QWidget* parent)
    : QTableView(parent), error_label_(new QLabel(viewport())) {
    error_label_->setObjectName(QStringLiteral("tableError"));
    error_label_->setWordWrap(true);
    error_label_->setAlignment(Qt::AlignCenter);
    error_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_label_->setAutoFillBackground(true);
    error_label_->hide();
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::ExtendedSelection);  // rows to copy together
    setAlternatingRowColors(true);
    // A name too wide keeps its module and its operation ("blocks_0.attn…aten::matmul"), on one
    // line: wrapped, the operation went to a second line that the row cannot show.
    setWordWrap(false);
    setTextElideMode(Qt::ElideMiddle);
    setItemDelegate(new EntryNameDelegate(this));
    horizontalHeader()->setSortIndicatorShown(true);
    verticalHeader()->hide();
    verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    // Tab moves to the next control, not to the next cell: the arrows move between cells.
    setTabKeyNavigation(false);
    // The vertical scroll bar comes with enough rows and takes its width from the columns.
    connect(verticalScrollBar(), &QScrollBar::rangeChanged, this, &EntryTableView::fitColumns,
            Qt::QueuedConnection);
}

void EntryTableView::setEntryModel(SqlTableModel* model, int sorted_column, Qt::SortOrder order) {
    if (SqlTableModel* previous = entryModel())
        disconnect(previous, nullptr, this, nullptr);
    setSortingEnabled(false);  // so that setting the model does not re-run its query
    setModel(model);
    for (int column = 0; model && column < model->columnCount(); ++column)
        setColumnHidden(column, model->isColumnHidden(column));
    {
        const QSignalBlocker blocker(horizontalHeader());
        horizontalHeader()->setSortIndicator(sorted_column, order);
    }
    setSortingEnabled(true);
    wanted_entry_ = -1;
    if (model) {
        connect(model, &SqlTableModel::errorChanged, this, &EntryTableView::showError);
        connect(model, &SqlTableModel::rowsRead, this, &EntryTableView::revealWantedEntry);
        // The columns' units come after the first rows: the headers grow by them.
        connect(model, &QAbstractItemModel::headerDataChanged, this, &EntryTableView::fitColumns);
        showError(model->errorMessage());
    } else {
        showError({});
    }
    // From the first page, never the whole table; once it has come, if it is on its way.
    if (model && model->busy())
        connect(model, &SqlTableModel::rowsRead, this, &EntryTableView::fitColumns,
                Qt::SingleShotConnection);
    else
        fitColumns();
    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid() && !selecting_)
                    emit rowSelected(current.row());
            });
}

void EntryTableView::selectEntry(qint64 id, bool as_user) {
    wanted_entry_ = id;
    wanted_as_user_ = as_user;
    revealWantedEntry();
}

void EntryTableView::revealWantedEntry() {
    SqlTableModel* model = entryModel();
    if (!model || wanted_entry_ < 0 || model->busy())
        return;  // a page is on its way: this runs again when it comes
    const int row = model->rowOfEntry(wanted_entry_);
    if (row < 0 && model->canFetchMore({}) && model->rowCount() < kMaxRevealedRows) {
        model->fetchMore({});
        return;
    }
    wanted_entry_ = -1;
    selecting_ = true;
    if (row >= 0) {
        selectRow(row);
        scrollTo(model->index(row, 1));
    } else {
        clearSelection();
    }
    selecting_ = false;
    if (row >= 0 && wanted_as_user_)
        emit rowSelected(row);
}

void EntryTableView::showError(const QString& message) {
    error_label_->setText(message);
    error_label_->setVisible(!message.isEmpty());
    placeErrorLabel();
}

// A banner along the bottom of the rows, so that the rows read before a failure stay visible.
void EntryTableView::placeErrorLabel() {
    const QRect area = viewport()->rect().adjusted(4, 4, -4, -4);
    const int height = qMin(area.height(), error_label_->heightForWidth(area.width()) + 8);
    error_label_->setGeometry(area.left(), area.bottom() - height + 1, area.width(), height);
}

QString EntryTableView::selectedRowsText() const {
    const QAbstractItemModel* table = model();
    if (!table || !selectionModel())
        return {};
    QList<int> columns;
    for (int column = 0; column < table->columnCount(); ++column) {
        if (!isColumnHidden(column))
            columns << column;
    }
    // Tabs and line breaks inside a cell would break the rows apart: spaces instead.
    auto cell = [](QString text) {
        return text.replace(QLatin1Char('\t'), QLatin1Char(' '))
            .replace(QLatin1Char('\n'), QLatin1Char(' '));
    };
    QStringList lines;
    QStringList header;
    for (int column : columns)
        header << cell(table->headerData(column, Qt::Horizontal).toString());
    lines << header.join(QLatin1Char('\t'));
    QModelIndexList rows = selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end());
    for (const QModelIndex& row : rows) {
        QStringList cells;
        for (int column : columns)
            cells << cell(table->index(row.row(), column).data().toString());
        lines << cells.join(QLatin1Char('\t'));
    }
    return rows.isEmpty() ? QString() : lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void EntryTableView::keyPressEvent(QKeyEvent* event) {
    if (event->matches(QKeySequence::Copy)) {
        const QString text = selectedRowsText();
        if (!text.isEmpty())
            QGuiApplication::clipboard()->setText(text);
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

QMenu* EntryTableView::contextMenu() const {
    return context_menu_;
}

void EntryTableView::contextMenuEvent(QContextMenuEvent* event) {
    const QModelIndex at = indexAt(viewport()->mapFromGlobal(event->globalPos()));
    if (!at.isValid())
        return;
    if (!selectionModel()->isRowSelected(at.row(), {}))
        setCurrentIndex(at);  // as a left click would: the row, its frames
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    QAction* copy = menu->addAction(tr("&Copy Rows"), this, [this] {
        QGuiApplication::clipboard()->setText(selectedRowsText());
    });
    copy->setShortcut(QKeySequence::Copy);
    menu->addAction(tr("&Export Table as CSV…"), this, &EntryTableView::chooseAndExportCsv);
    if (offer_filter_) {
        const QString name = entryModel()->rawValue(at.row(), 1).toString();
        menu->addAction(
            tr("&Filter to “%1”").arg(fontMetrics().elidedText(name, Qt::ElideMiddle, 300)), this,
            [this, name] { emit filterRequested(name); });
    }
    context_menu_ = menu;
    menu->popup(event->globalPos());
}

void EntryTableView::exportCsv(const QString& path,
                               std::function<void(const QString& error)> done) {
    SqlTableModel* model = entryModel();
    if (!model) {
        done(tr("There is no table to export."));
        return;
    }
    QList<int> columns;
    QStringList header;
    for (int column = 0; column < model->columnCount(); ++column) {
        if (!isColumnHidden(column)) {
            columns << column;
            header << model->headerData(column, Qt::Horizontal, SqlTableModel::RawHeaderRole)
                          .toString();
        }
    }
    model->readAllRows(this, [path, columns, header, done](const RowPage& page) {
        if (!page.error.isEmpty()) {  // never a file that looks whole but is not
            done(tr("The table could not be read in full: %1").arg(page.error));
            return;
        }
        QString text = csvRecord(header) + QLatin1Char('\n');
        for (const QVector<QVariant>& row : page.rows) {
            QStringList fields;
            for (int column : columns)
                fields << csvField(row.value(column));
            text += csvRecord(fields) + QLatin1Char('\n');
        }
        QString error;
        writeTextFile(path, text, &error);
        done(error);
    });
}

void EntryTableView::chooseAndExportCsv() {
    QString path =
        QFileDialog::getSaveFileName(this, tr("Export Table"), QString(), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
        path += QLatin1String(".csv");
    exportCsv(path, [this](const QString& error) {
        if (!error.isEmpty())
            QMessageBox::warning(this, tr("Export Table"), error);
    });
}

void EntryTableView::resizeEvent(QResizeEvent* event) {
    QTableView::resizeEvent(event);
    placeErrorLabel();
    fitColumns();
}

int EntryTableView::narrowestTextColumn() const {
    return 12 * fontMetrics().averageCharWidth();
}

void EntryTableView::fitColumns() {
    resizeColumnsToContents();
    // Every column stays in view (a real model's names pushed the Share column behind a
    // horizontal scroll bar at the default window size): the columns of text (names, elided in
    // their middle, in full in their tooltips) take the room the figures leave. The widest of
    // them, the row's name, takes what the others leave; when that is less than it needs, the
    // others give up their room first, down to their narrowest (a weight's module, which its
    // name repeats, gave way too late: German headers left 'layer…eight' for every weight).
    QHeaderView* header = horizontalHeader();
    // Text is what a table's cells left-align (figures are right-aligned).
    auto text = [this](int column) {
        return model() && model()->rowCount() > 0 &&
               (model()->index(0, column).data(Qt::TextAlignmentRole).toInt() & Qt::AlignLeft);
    };
    int total = 0, widest = -1;
    for (int column = 0; column < header->count(); ++column) {
        if (isColumnHidden(column))
            continue;
        total += header->sectionSize(column);
        if (widest < 0 || (text(column) && !text(widest)) ||
            (text(column) == text(widest) &&
             header->sectionSize(column) > header->sectionSize(widest)))
            widest = column;
    }
    if (widest < 0)
        return;
    const int narrowest = narrowestTextColumn();
    // A short text column (an operation's part of the step: "Nach Rückwärts") is as wide as its
    // texts and keeps that width: cut, it would say nothing, where a long name cut in its
    // middle still reads.
    const int short_text = 20 * fontMetrics().averageCharWidth();
    const auto floorOf = [&](int wanted) {
        return wanted <= short_text ? wanted : std::min(narrowest, wanted);
    };
    for (int column = 0; column < header->count(); ++column) {
        if (column == widest || isColumnHidden(column) || !text(column))
            continue;
        int texts = 0;  // of the rows read so far, a few hundred at most
        for (int row = 0; row < std::min(model()->rowCount(), 500); ++row)
            texts = std::max(texts, fontMetrics().horizontalAdvance(
                                        model()->index(row, column).data().toString()));
        const int wanted = texts + 2 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 8;
        if (wanted <= short_text && wanted > header->sectionSize(column)) {
            total += wanted - header->sectionSize(column);
            header->resizeSection(column, wanted);
        }
    }
    // The other text columns: their widths as their contents want them, and at the narrowest.
    std::vector<std::pair<int, int>> others;  // column, wanted width
    int others_wanted = 0, others_narrowest = 0;
    for (int column = 0; column < header->count(); ++column) {
        if (column == widest || isColumnHidden(column) || !text(column) || !text(widest))
            continue;
        others.emplace_back(column, header->sectionSize(column));
        others_wanted += header->sectionSize(column);
        others_narrowest += floorOf(header->sectionSize(column));
    }
    const int wanted = header->sectionSize(widest);
    const int room = viewport()->width() - (total - wanted - others_wanted);  // for the text
    if (room - others_wanted >= wanted || others.empty()) {
        header->resizeSection(widest, std::max({narrowest, room - others_wanted, 0}));
        return;
    }
    const int name =
        std::max(std::min(wanted, room - others_narrowest), std::min(narrowest, wanted));
    header->resizeSection(widest, name);
    // Each of the others gets its narrowest, and what is left beyond that in proportion to what
    // it wants more.
    int extra = std::max(room - name - others_narrowest, 0);
    int more_wanted = others_wanted - others_narrowest;
    for (const auto& [column, column_wanted] : others) {
        const int floor = floorOf(column_wanted);
        const int more = column_wanted - floor;
        const int share =
            more_wanted > 0 ? static_cast<int>(static_cast<qint64>(extra) * more / more_wanted) : 0;
        header->resizeSection(column, floor + share);
        extra -= share;
        more_wanted -= more;
    }
}

SqlTableModel* EntryTableView::entryModel() const {
    return qobject_cast<SqlTableModel*>(model());
}

}  // namespace trainscope::ui
